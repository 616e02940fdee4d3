import { randomUUID } from 'node:crypto';
import { toUnits, type RateLimitStore, type ReserveResult, type WindowResult } from './rate-limit-store';

interface Entry {
  ts: number;
  id: string;
  amount: number;
}

interface Bucket {
  /** Sorted by `ts`, oldest first. */
  entries: Entry[];
  byId: Map<string, Entry>;
  sum: number;
  windowMs: number;
}

/** Sweep idle keys every this many operations so memory stays bounded by the active keys. */
const SWEEP_EVERY = 1_000;

/**
 * The sliding-window store in process: for a single replica without `REDIS_URL`, and as the local
 * fallback while Redis is unreachable. Every method body is synchronous (JavaScript runs it
 * without interleaving), so each check-and-record is atomic within the process.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, Bucket>();
  private operations = 0;

  async hit(key: string, limit: number, windowMs: number, now: number): Promise<WindowResult> {
    const bucket = this.bucket(key, windowMs, now);
    const allowed = bucket.entries.length < limit;
    if (allowed) this.record(bucket, { ts: now, id: randomUUID(), amount: 1 });
    return result(bucket, allowed, limit, windowMs, now);
  }

  async reserve(key: string, amount: number, limit: number, windowMs: number, now: number): Promise<ReserveResult> {
    const units = toUnits(amount);
    const bucket = this.bucket(key, windowMs, now);
    if (bucket.sum + units <= limit) {
      const id = randomUUID();
      this.record(bucket, { ts: now, id, amount: units });
      return { ...result(bucket, true, limit, windowMs, now), reservationId: id };
    }
    const retryAfterMs = units > limit ? undefined : waitFor(bucket, units, limit, windowMs, now);
    return { ...result(bucket, false, limit, windowMs, now), retryAfterMs };
  }

  async settle(key: string, reservationId: string, actual: number, windowMs: number, now: number): Promise<void> {
    const bucket = this.buckets.get(key);
    if (!bucket) return;
    trim(bucket, windowMs, now);
    const entry = bucket.byId.get(reservationId);
    if (!entry) return;
    const units = toUnits(actual);
    bucket.sum += units - entry.amount;
    entry.amount = units;
    // Settled once: a second settle finds nothing and does nothing.
    bucket.byId.delete(reservationId);
  }

  async peek(key: string, limit: number, windowMs: number, now: number): Promise<WindowResult> {
    const bucket = this.buckets.get(key);
    if (!bucket) return { allowed: limit >= 1, used: 0, remaining: Math.max(0, limit), resetMs: limit >= 1 ? 0 : windowMs, windowResetMs: 0, limit };
    trim(bucket, windowMs, now);
    return result(bucket, bucket.sum + 1 <= limit, limit, windowMs, now);
  }

  /** Number of keys held (for tests and diagnostics). */
  get size(): number {
    return this.buckets.size;
  }

  private bucket(key: string, windowMs: number, now: number): Bucket {
    if (++this.operations % SWEEP_EVERY === 0) this.sweep(now);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { entries: [], byId: new Map(), sum: 0, windowMs };
      this.buckets.set(key, bucket);
    }
    bucket.windowMs = windowMs;
    trim(bucket, windowMs, now);
    return bucket;
  }

  private record(bucket: Bucket, entry: Entry): void {
    // Keep the order by timestamp even when callers pass times out of order.
    let index = bucket.entries.length;
    while (index > 0 && bucket.entries[index - 1]!.ts > entry.ts) index--;
    bucket.entries.splice(index, 0, entry);
    bucket.byId.set(entry.id, entry);
    bucket.sum += entry.amount;
  }

  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) {
      trim(bucket, bucket.windowMs, now);
      if (bucket.entries.length === 0) this.buckets.delete(key);
    }
  }
}

function trim(bucket: Bucket, windowMs: number, now: number): void {
  const cutoff = now - windowMs;
  let drop = 0;
  while (drop < bucket.entries.length && bucket.entries[drop]!.ts <= cutoff) {
    const entry = bucket.entries[drop]!;
    bucket.sum -= entry.amount;
    bucket.byId.delete(entry.id);
    drop++;
  }
  if (drop > 0) bucket.entries.splice(0, drop);
  if (bucket.entries.length === 0) bucket.sum = 0;
}

/** Milliseconds until `need` more units fit, walking the oldest entries as they expire. */
function waitFor(bucket: Bucket, need: number, limit: number, windowMs: number, now: number): number {
  if (need > limit) return windowMs;
  if (bucket.sum + need <= limit) return 0;
  let freed = 0;
  for (const entry of bucket.entries) {
    freed += entry.amount;
    if (bucket.sum - freed + need <= limit) return Math.max(0, entry.ts + windowMs - now);
  }
  return windowMs;
}

function result(bucket: Bucket, allowed: boolean, limit: number, windowMs: number, now: number): WindowResult {
  const newest = bucket.entries[bucket.entries.length - 1];
  return {
    allowed,
    used: bucket.sum,
    remaining: Math.max(0, limit - bucket.sum),
    resetMs: waitFor(bucket, 1, limit, windowMs, now),
    windowResetMs: newest ? Math.max(0, newest.ts + windowMs - now) : 0,
    limit,
  };
}
