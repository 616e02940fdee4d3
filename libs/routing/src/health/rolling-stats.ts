/**
 * Rolling per-endpoint statistics: one bucket per wall-clock minute over a 30-minute window.
 *
 * A bucket holds plain counters (successes, endpoint failures, caller errors) and three log-scale
 * histograms with fixed bins (time to first token, total latency, output tokens per second), so
 * buckets merge by adding counters index by index: across minutes, and across replicas through
 * Redis hashes (see `bucketFields` / `bucketFromFields`). Percentiles are read from the bins.
 */

import { applySample, clearBucket, emptyBucket, mergeBucket, summarize, toSample, type HealthOutcome, type HealthSummary, type Sample, type StatsBucket } from './stats-bucket';

export * from './histogram';
export * from './stats-bucket';

export const WINDOW_MINUTES = 30;
export const MINUTE_MS = 60_000;

export function minuteOf(epochMs: number): number {
  return Math.floor(epochMs / MINUTE_MS);
}

export interface RecentCounts {
  successes: number;
  failures: number;
  callerErrors: number;
}

/**
 * One endpoint's window: a ring of per-minute buckets plus a running total, so recording is O(1)
 * and a summary costs one pass over the bins, not over the minutes. Minutes older than the window
 * are subtracted from the total as the clock moves on.
 */
export class RollingStats {
  private readonly slotMinutes: number[];
  private readonly slots: Array<StatsBucket | undefined>;
  private readonly total = emptyBucket();
  private head = Number.NEGATIVE_INFINITY;

  constructor(readonly windowMinutes: number = WINDOW_MINUTES) {
    this.slotMinutes = new Array<number>(windowMinutes).fill(Number.NEGATIVE_INFINITY);
    this.slots = new Array<StatsBucket | undefined>(windowMinutes).fill(undefined);
  }

  record(outcome: HealthOutcome, nowMs: number): void {
    this.apply(minuteOf(nowMs), toSample(outcome));
  }

  /** Adds an already reduced outcome to a minute (ignored when the minute is out of the window). */
  apply(minute: number, sample: Sample): void {
    const bucket = this.slot(minute);
    if (!bucket) return;
    applySample(bucket, sample);
    applySample(this.total, sample);
  }

  /** Adds a whole bucket (another replica's, or a delta) to a minute. */
  merge(minute: number, source: StatsBucket): void {
    const bucket = this.slot(minute);
    if (!bucket) return;
    mergeBucket(bucket, source);
    mergeBucket(this.total, source);
  }

  /** Empties the window, keeping its buffers (a refresh refills it). */
  clear(): void {
    for (let i = 0; i < this.windowMinutes; i++) {
      const bucket = this.slots[i];
      if (bucket) clearBucket(bucket);
      this.slotMinutes[i] = Number.NEGATIVE_INFINITY;
    }
    clearBucket(this.total);
    this.head = Number.NEGATIVE_INFINITY;
  }

  /** Everything in the window ending at `nowMs`. */
  summary(nowMs: number): HealthSummary {
    this.advance(minuteOf(nowMs));
    return summarize(this.total);
  }

  /** Counters of the last `minutes` minutes, the current one included. */
  recent(nowMs: number, minutes: number): RecentCounts {
    const now = minuteOf(nowMs);
    this.advance(now);
    const counts: RecentCounts = { successes: 0, failures: 0, callerErrors: 0 };
    for (let i = 0; i < this.windowMinutes; i++) {
      const minute = this.slotMinutes[i] ?? Number.NEGATIVE_INFINITY;
      const bucket = this.slots[i];
      if (!bucket || minute > now || minute <= now - minutes) continue;
      counts.successes += bucket.success;
      counts.failures += bucket.failure;
      counts.callerErrors += bucket.callerError;
    }
    return counts;
  }

  /** The live buckets, oldest first (copies). */
  buckets(nowMs: number): Array<{ minute: number; bucket: StatsBucket }> {
    this.advance(minuteOf(nowMs));
    const live: Array<{ minute: number; bucket: StatsBucket }> = [];
    for (let i = 0; i < this.windowMinutes; i++) {
      const bucket = this.slots[i];
      const minute = this.slotMinutes[i] ?? Number.NEGATIVE_INFINITY;
      if (!bucket || minute <= this.head - this.windowMinutes) continue;
      const copy = emptyBucket();
      mergeBucket(copy, bucket);
      live.push({ minute, bucket: copy });
    }
    return live.sort((a, b) => a.minute - b.minute);
  }

  private index(minute: number): number {
    return ((minute % this.windowMinutes) + this.windowMinutes) % this.windowMinutes;
  }

  private slot(minute: number): StatsBucket | undefined {
    this.advance(minute);
    if (minute <= this.head - this.windowMinutes) return undefined;
    const i = this.index(minute);
    let bucket = this.slots[i];
    if (this.slotMinutes[i] !== minute) {
      // After advance() a slot holding another minute is already cleared and out of the total.
      if (bucket) clearBucket(bucket);
      this.slotMinutes[i] = minute;
    }
    if (!bucket) {
      bucket = emptyBucket();
      this.slots[i] = bucket;
    }
    return bucket;
  }

  /** Moves the window's end to `minute`, dropping the minutes that fall out of it. */
  private advance(minute: number): void {
    if (!(minute > this.head)) return;
    if (minute - this.head >= this.windowMinutes) {
      for (let i = 0; i < this.windowMinutes; i++) this.expire(i);
    } else {
      for (let m = this.head + 1; m <= minute; m++) this.expire(this.index(m));
    }
    this.head = minute;
  }

  private expire(i: number): void {
    const bucket = this.slots[i];
    if (bucket && this.slotMinutes[i] !== Number.NEGATIVE_INFINITY) {
      mergeBucket(this.total, bucket, -1);
      clearBucket(bucket);
    }
    this.slotMinutes[i] = Number.NEGATIVE_INFINITY;
  }
}
