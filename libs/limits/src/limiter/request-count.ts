import type { LimitState } from './rate-limit-headers';

/**
 * A request's count against its key's requests per minute (docs/decisions/0016). Routes that call
 * an upstream defer it to their admission script, which counts it together with the token
 * reservation and the budget holds (one Redis round trip); other routes count it up front. Shared
 * by the data plane and the call context: whoever counts sets `state`, and the data plane counts a
 * deferred request that failed, or answered, before reaching admission.
 */
export interface RequestCount {
  /** Counted by the admission script rather than up front. */
  readonly deferred: boolean;
  /** The request window once counted (for the x-ratelimit-* headers); absent until then. */
  state?: LimitState;
}
