import { Global, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { ENDPOINT_HEALTH, RegistryModule, RegistryService, type EndpointHealthPort, type EndpointStatsView } from '@rosetta/registry';
import { CircuitBreakerService, EndpointHealthModule, EndpointHealthService, type HealthOutcome } from './health';

/** Live health (shared stats) plus this replica's circuit breakers, behind the registry's port. */
@Injectable()
export class LiveEndpointHealth implements EndpointHealthPort, OnModuleInit {
  constructor(
    private readonly health: EndpointHealthService,
    private readonly breaker: CircuitBreakerService,
    private readonly registry: RegistryService,
  ) {}

  /** Watch every known endpoint from the start, so shared stats show before this replica calls it. */
  onModuleInit(): void {
    for (const model of this.registry.list()) for (const e of model.endpoints) this.health.track(`${e.provider}/${e.upstreamModel}`);
  }

  available(key: string): boolean {
    return this.health.available(key);
  }

  acquire(key: string): boolean {
    return !this.health.isDisabled(key) && this.breaker.tryAcquire(key);
  }

  release(key: string): void {
    this.breaker.release(key);
  }

  view(key: string): EndpointStatsView {
    return this.health.view(key);
  }

  report(key: string, outcome: HealthOutcome): void {
    this.health.report(key, outcome);
  }
}

@Global()
@Module({
  imports: [EndpointHealthModule, RegistryModule],
  providers: [LiveEndpointHealth, { provide: ENDPOINT_HEALTH, useExisting: LiveEndpointHealth }],
  exports: [ENDPOINT_HEALTH],
})
export class EndpointHealthPortModule {}
