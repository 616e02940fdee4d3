/**
 * Where limit counters live. Every implementation is an exact SLIDING window: an entry recorded at
 * `t` counts against the limit while `now - windowMs < t <= now`, and stops counting at
 * `t + windowMs`. There are no fixed minute buckets, so a burst straddling a minute boundary still
 * sees exactly the limit.
 *
 * Each operation is atomic: the check and the record happen as one step (one Lua script in Redis,
 * one synchronous section in process), so concurrent callers, on one replica or many sharing
 * Redis, can never overshoot.
 */
export interface WindowResult {
  /** Whether this call was admitted (and recorded). For `peek`: whether one more unit fits now. */
  allowed: boolean;
  /** Units counted in the window after this call (a refused call records nothing). */
  used: number;
  /** `max(0, limit - used)`. */
  remaining: number;
  /** Milliseconds until enough capacity frees up for one more unit; 0 when there is room now. */
  resetMs: number;
  /**
   * Milliseconds until everything now in the window has expired (the window is back to its full
   * limit); 0 when the window is empty. OpenAI's `x-ratelimit-reset-*` meaning.
   */
  windowResetMs?: number;
  limit: number;
}

export interface ReserveResult extends WindowResult {
  /** Set when admitted: hand it to `settle`. */
  reservationId?: string;
  /**
   * When refused: milliseconds until the whole requested amount would fit, assuming nothing else
   * is recorded meanwhile. Absent when the amount is larger than the limit itself (it never fits).
   */
  retryAfterMs?: number;
}

export interface RateLimitStore {
  /**
   * Request counting: if fewer than `limit` hits are in the window, record one at `now` and allow;
   * otherwise refuse and record nothing.
   */
  hit(key: string, limit: number, windowMs: number, now: number): Promise<WindowResult>;

  /**
   * Token budget: admit, and record `amount` at `now`, only if `used + amount <= limit`.
   *
   * Decision on oversized requests: an amount larger than the whole limit is REFUSED even when the
   * window is empty (admitting it would break "never exceed the minute's tokens"); its result has
   * no `retryAfterMs` because waiting cannot help. An amount of 0 is always admitted (and recorded
   * so it can be settled).
   */
  reserve(key: string, amount: number, limit: number, windowMs: number, now: number): Promise<ReserveResult>;

  /**
   * Replaces a reservation's amount by the actual usage (clamped at 0; it may exceed the
   * reservation), keeping its original timestamp, so unused tokens return to the budget at once.
   * Unknown, expired or already-settled reservations are ignored, so settling twice is harmless.
   */
  settle(key: string, reservationId: string, actual: number, windowMs: number, now: number): Promise<void>;

  /** Reads the window without recording anything (for headers). */
  peek(key: string, limit: number, windowMs: number, now: number): Promise<WindowResult>;
}

/** Normalises an amount to a non-negative integer. */
export function toUnits(amount: number): number {
  if (!Number.isFinite(amount) || amount <= 0) return 0;
  return Math.ceil(amount);
}
