import type { BreakerState } from './circuit-breaker';
import type { RecentCounts } from './rolling-stats';

/** Registry `status` of a provider endpoint (ARCHITECTURE §4.11). */
export const EndpointStatus = { Operational: 0, Degraded: 1, Down: 2, Disabled: 3 } as const;
export type EndpointStatus = (typeof EndpointStatus)[keyof typeof EndpointStatus];

/**
 * How an endpoint's status is derived. Over the last `recentMinutes` minutes (shared across
 * replicas when Redis is configured), with at least `minSamples` calls that count for health:
 *   down (2)      the circuit is open, or success rate < `downBelow`
 *   degraded (1)  the circuit is half-open, or success rate < `degradedBelow`
 *   operational   otherwise, including an endpoint with too little traffic to judge
 * Disabled (3) is the operator's switch and wins over everything.
 */
export interface StatusThresholds {
  recentMinutes: number;
  minSamples: number;
  downBelow: number;
  degradedBelow: number;
}

export const DEFAULT_STATUS_THRESHOLDS: StatusThresholds = { recentMinutes: 5, minSamples: 5, downBelow: 0.5, degradedBelow: 0.95 };

/** The status policy above, as a pure function of what is known about the endpoint now. */
export function endpointStatus(disabled: boolean, breaker: BreakerState, recent: RecentCounts | undefined, thresholds: StatusThresholds): EndpointStatus {
  if (disabled) return EndpointStatus.Disabled;
  if (breaker === 'open') return EndpointStatus.Down;
  const samples = recent ? recent.successes + recent.failures : 0;
  const rate = recent && samples >= thresholds.minSamples ? recent.successes / samples : null;
  if (rate !== null && rate < thresholds.downBelow) return EndpointStatus.Down;
  if (breaker === 'half-open') return EndpointStatus.Degraded;
  if (rate !== null && rate < thresholds.degradedBelow) return EndpointStatus.Degraded;
  return EndpointStatus.Operational;
}
