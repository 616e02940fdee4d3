import { MemoryRateLimitStore } from './memory-rate-limit-store';
import { toUnits, type RateLimitStore, type ReserveResult, type WindowResult } from './rate-limit-store';

/**
 * What to do while the shared store (Redis) cannot answer:
 * - `local` (default): count in this process instead, with the same limits. Requests keep being
 *   served, and one replica alone can never exceed the plan; across N replicas the effective limit
 *   during the outage is at most N x the plan.
 * - `open`: admit everything (no limit at all while Redis is down).
 */
export type RedisFailurePolicy = 'local' | 'open';

export interface FailoverLogger {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

export interface FailoverRateLimitStoreOptions {
  logger?: FailoverLogger;
  policy?: RedisFailurePolicy;
  /** Upper bound on any one call to the primary; past it the call answers from the fallback. */
  timeoutMs?: number;
  /** While degraded, try the primary again at most this often (one probe at a time). */
  probeIntervalMs?: number;
  /** A cheap hint that the primary is known to be down (e.g. the Redis client is reconnecting). */
  isUnavailable?: () => boolean;
  /** Replaces the in-process fallback (tests). */
  fallback?: RateLimitStore;
  /** Clock for the breaker (tests). */
  clock?: () => number;
}

export interface FailoverMetrics {
  /** Calls to the primary that failed or timed out. */
  failures: number;
  /** Calls answered by the fallback. */
  fallbackCalls: number;
  /** Outages seen (transitions from healthy to degraded). */
  outages: number;
  degraded: boolean;
}

const PRIMARY = 'r.';
const LOCAL = 'l.';

/**
 * Wraps the shared store with the Redis failure policy: every call goes to the primary; on an error
 * or time-out it is answered by the fallback instead, and the store turns degraded (one warning
 * line per outage, not per request). While degraded, calls go straight to the fallback, with one
 * probe of the primary at most every `probeIntervalMs`; the first probe that succeeds ends the
 * outage. It never throws and never waits longer than `timeoutMs` on the primary.
 *
 * Reservation ids carry the store that made them, so a settlement goes back to the same store; a
 * primary reservation that cannot be settled during an outage simply stays counted until it
 * expires (the safe direction).
 */
export class FailoverRateLimitStore implements RateLimitStore {
  private readonly fallback: RateLimitStore;
  private readonly policy: RedisFailurePolicy;
  private readonly timeoutMs: number;
  private readonly probeIntervalMs: number;
  private readonly clock: () => number;
  private degraded = false;
  private probing = false;
  private lastProbe = 0;
  private counters = { failures: 0, fallbackCalls: 0, outages: 0 };

  constructor(
    private readonly primary: RateLimitStore,
    private readonly options: FailoverRateLimitStoreOptions = {},
  ) {
    this.policy = options.policy ?? 'local';
    this.fallback = options.fallback ?? (this.policy === 'open' ? new OpenRateLimitStore() : new MemoryRateLimitStore());
    this.timeoutMs = options.timeoutMs ?? 1_500;
    this.probeIntervalMs = options.probeIntervalMs ?? 1_000;
    this.clock = options.clock ?? Date.now;
  }

  /** The `failures` counter: primary calls that failed or timed out since start. */
  failures(): number {
    return this.counters.failures;
  }

  metrics(): FailoverMetrics {
    return { ...this.counters, degraded: this.degraded };
  }

  /** Whether the primary is answering now (not degraded, connection not known to be down). */
  healthy(): boolean {
    return this.mayCallPrimary() && !this.degraded;
  }

  /** Runs another call on the primary's connection under this store's time-out and outage accounting. */
  attempt<T>(call: () => Promise<T>): Promise<T> {
    return this.callPrimary(() => call());
  }

  hit(key: string, limit: number, windowMs: number, now: number): Promise<WindowResult> {
    return this.run(
      (store) => store.hit(key, limit, windowMs, now),
      (store) => store.hit(key, limit, windowMs, now),
    );
  }

  async reserve(key: string, amount: number, limit: number, windowMs: number, now: number): Promise<ReserveResult> {
    return this.run(
      async (store) => tag(await store.reserve(key, amount, limit, windowMs, now), PRIMARY),
      async (store) => tag(await store.reserve(key, amount, limit, windowMs, now), LOCAL),
    );
  }

  async settle(key: string, reservationId: string, actual: number, windowMs: number, now: number): Promise<void> {
    const origin = reservationId.slice(0, 2);
    const id = reservationId.slice(2);
    try {
      if (origin === LOCAL) {
        await this.fallback.settle(key, id, actual, windowMs, now);
      } else if (origin === PRIMARY && this.mayCallPrimary()) {
        await this.callPrimary((store) => store.settle(key, id, toUnits(actual), windowMs, now));
      }
    } catch {
      // Already counted by callPrimary; the reservation stays counted until it expires.
    }
  }

  peek(key: string, limit: number, windowMs: number, now: number): Promise<WindowResult> {
    return this.run(
      (store) => store.peek(key, limit, windowMs, now),
      (store) => store.peek(key, limit, windowMs, now),
    );
  }

  private async run<T>(onPrimary: (store: RateLimitStore) => Promise<T>, onFallback: (store: RateLimitStore) => Promise<T>): Promise<T> {
    if (this.mayCallPrimary()) {
      try {
        return await this.callPrimary(onPrimary);
      } catch {
        // Falls through to the fallback; the failure is counted and logged in callPrimary.
      }
    }
    this.counters.fallbackCalls++;
    return onFallback(this.fallback);
  }

  /** Healthy: always. Degraded: one probe at a time, at most every probeIntervalMs. */
  private mayCallPrimary(): boolean {
    if (this.options.isUnavailable?.()) {
      if (!this.degraded) this.markDown(new Error('redis connection is down'));
      return false;
    }
    if (!this.degraded) return true;
    if (this.probing || this.clock() - this.lastProbe < this.probeIntervalMs) return false;
    return true;
  }

  private async callPrimary<T>(call: (store: RateLimitStore) => Promise<T>): Promise<T> {
    const probe = this.degraded;
    if (probe) {
      this.probing = true;
      this.lastProbe = this.clock();
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await Promise.race([
        call(this.primary),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`rate-limit store timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
        }),
      ]);
      this.markUp();
      return result;
    } catch (error) {
      this.counters.failures++;
      this.markDown(error);
      throw error;
    } finally {
      if (timer) clearTimeout(timer);
      if (probe) this.probing = false;
    }
  }

  private markDown(error: unknown): void {
    if (this.degraded) return;
    this.degraded = true;
    this.lastProbe = this.clock();
    this.counters.outages++;
    const message = error instanceof Error ? error.message : String(error);
    this.options.logger?.warn(
      { err: message, policy: this.policy },
      this.policy === 'open'
        ? 'rate limits: redis unavailable, admitting requests without limits until it answers again'
        : 'rate limits: redis unavailable, enforcing limits per replica until it answers again',
    );
  }

  private markUp(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.options.logger?.info?.({ failures: this.counters.failures }, 'rate limits: redis answers again, limits are shared across replicas');
  }
}

function tag(result: ReserveResult, origin: string): ReserveResult {
  return result.reservationId === undefined ? result : { ...result, reservationId: origin + result.reservationId };
}

/** The `open` policy's fallback: everything is admitted and nothing is counted. */
export class OpenRateLimitStore implements RateLimitStore {
  async hit(_key: string, limit: number): Promise<WindowResult> {
    return open(limit);
  }
  async reserve(_key: string, _amount: number, limit: number): Promise<ReserveResult> {
    return { ...open(limit), reservationId: 'open' };
  }
  async settle(): Promise<void> {}
  async peek(_key: string, limit: number): Promise<WindowResult> {
    return open(limit);
  }
}

function open(limit: number): WindowResult {
  return { allowed: true, used: 0, remaining: limit, resetMs: 0, windowResetMs: 0, limit };
}
