import { Inject, Injectable, Optional } from '@nestjs/common';
import { CircuitBreaker, type CircuitBreakerOptions } from './circuit-breaker';

/** Optional settings for the injected breaker (see CircuitBreakerOptions for the defaults). */
export const CIRCUIT_BREAKER_OPTIONS = Symbol('CIRCUIT_BREAKER_OPTIONS');

/** The process-wide circuit breakers, one per endpoint key (`<provider slug>/<upstream model>`). */
@Injectable()
export class CircuitBreakerService extends CircuitBreaker {
  constructor(@Optional() @Inject(CIRCUIT_BREAKER_OPTIONS) options?: CircuitBreakerOptions) {
    super(options ?? {});
  }
}
