import { Module } from '@nestjs/common';
import { ROSETTA_CONFIG, type RosettaConfig } from '@rosetta/platform';
import { CIRCUIT_BREAKER_OPTIONS, CircuitBreakerService } from './circuit-breaker.service';
import { EndpointHealthService } from './endpoint-health.service';

/**
 * Endpoint health and circuit breakers, one instance of each per process. Uses the global
 * REDIS_CLIENT (PlatformModule) when present to share stats across replicas; works without it.
 * The defaults apply here; the ENDPOINT_HEALTH_OPTIONS / CIRCUIT_BREAKER_OPTIONS tokens are
 * optional and serve tests (Test.createTestingModule with overrides) or a future dynamic module.
 */
@Module({
  providers: [
    {
      provide: CIRCUIT_BREAKER_OPTIONS,
      inject: [{ token: ROSETTA_CONFIG, optional: true }],
      // The failure-ratio rule needs at least twice the consecutive threshold in samples.
      useFactory: (config?: RosettaConfig) =>
        config
          ? { consecutiveFailures: config.breaker.failures, minSamples: Math.max(10, config.breaker.failures * 2), cooldownMs: config.breaker.cooldownMs }
          : {},
    },
    CircuitBreakerService,
    EndpointHealthService,
  ],
  exports: [CircuitBreakerService, EndpointHealthService],
})
export class EndpointHealthModule {}
