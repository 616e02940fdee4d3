/** How deliveries are retried: exponential backoff with jitter, up to a bound. */
export interface RetryPolicy {
  /** The first retry's delay before jitter, ms. */
  baseMs: number;
  /** No delay grows past this, ms. */
  maxDelayMs: number;
  /** Attempts in all (the first included); after the last failure the delivery is marked failed. */
  maxAttempts: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 10_000, maxDelayMs: 3_600_000, maxAttempts: 10 };

/**
 * The wait before attempt `failed + 1`, after `failed` failed attempts: base·2^(failed−1), capped,
 * then scaled into its upper half by `random` (0..1) — "equal jitter", so replicas retrying the
 * same receiver after an outage spread out instead of arriving together, while no retry comes
 * sooner than half its step. Undefined when no attempt is left.
 */
export function retryDelayMs(failed: number, policy: RetryPolicy, random: number = Math.random()): number | undefined {
  if (failed >= policy.maxAttempts) return undefined;
  const step = Math.min(policy.baseMs * 2 ** Math.max(0, failed - 1), policy.maxDelayMs);
  const jitter = Math.min(Math.max(random, 0), 1);
  return Math.round(step / 2 + (step / 2) * jitter);
}
