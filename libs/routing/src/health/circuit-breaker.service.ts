import { Inject, Injectable, Optional } from '@nestjs/common';
import { MetricsService } from '@rosetta/platform';
import { CircuitBreaker, type BreakerState, type CircuitBreakerOptions } from './circuit-breaker';

const STATE_VALUE: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };

/** Optional settings for the injected breaker (see CircuitBreakerOptions for the defaults). */
export const CIRCUIT_BREAKER_OPTIONS = Symbol('CIRCUIT_BREAKER_OPTIONS');

/** The process-wide circuit breakers, one per endpoint key (`<provider slug>/<upstream model>`). */
@Injectable()
export class CircuitBreakerService extends CircuitBreaker {
  constructor(@Optional() @Inject(CIRCUIT_BREAKER_OPTIONS) options?: CircuitBreakerOptions, @Optional() metrics?: MetricsService) {
    super(options ?? {});
    metrics?.gauge(
      'rosetta_circuit_state',
      "Each endpoint's circuit on this replica (the most open of its workers'): 0 closed, 1 half-open, 2 open.",
      () => this.endpoints().map((endpoint) => ({ labels: { endpoint }, value: STATE_VALUE[this.state(endpoint)] })),
      ['endpoint'],
      // Across a replica's workers (each keeps its own breakers), the worst state is shown.
      'max',
    );
  }
}
