/**
 * Rolling per-endpoint statistics: one bucket per wall-clock minute over a 30-minute window.
 *
 * A bucket holds plain counters (successes, endpoint failures, caller errors) and three log-scale
 * histograms with fixed bins (time to first token, total latency, output tokens per second), so
 * buckets merge by adding counters index by index: across minutes, and across replicas through
 * Redis hashes (see `bucketFields` / `bucketFromFields`). Percentiles are read from the bins.
 */

/** A log-scale histogram layout: bin 0 is [0, min), bin i (1..bins-2) is
 *  [min·2^((i-1)/binsPerDoubling), min·2^(i/binsPerDoubling)), the last bin is everything above. */
export interface HistogramScale {
  readonly min: number;
  readonly binsPerDoubling: number;
  readonly bins: number;
}

/** Milliseconds: 1 ms to 2^20 ms (about 17 minutes) in steps of 2^(1/4) (≈ 19 % wide bins). */
export const MS_SCALE: HistogramScale = { min: 1, binsPerDoubling: 4, bins: 82 };
/** Output tokens per second: 0.1 to about 105,000 tok/s, same resolution. */
export const TOKENS_PER_SECOND_SCALE: HistogramScale = { min: 0.1, binsPerDoubling: 4, bins: 82 };

export const WINDOW_MINUTES = 30;
export const MINUTE_MS = 60_000;

export function minuteOf(epochMs: number): number {
  return Math.floor(epochMs / MINUTE_MS);
}

export function binIndex(scale: HistogramScale, value: number): number {
  if (!(value >= scale.min)) return 0;
  const index = 1 + Math.floor(Math.log2(value / scale.min) * scale.binsPerDoubling);
  return Math.min(index, scale.bins - 1);
}

/** [lower, upper) of a bin; the overflow bin's upper bound is Infinity. */
export function binBounds(scale: HistogramScale, index: number): [number, number] {
  if (index <= 0) return [0, scale.min];
  const lower = scale.min * 2 ** ((index - 1) / scale.binsPerDoubling);
  if (index >= scale.bins - 1) return [lower, Number.POSITIVE_INFINITY];
  return [lower, scale.min * 2 ** (index / scale.binsPerDoubling)];
}

/**
 * The q-quantile (0 < q ≤ 1) of a histogram, by nearest rank, placed inside its bin by
 * log-linear interpolation; null when the histogram is empty. The result always lies in the bin
 * that holds the true sample of that rank (the overflow bin answers its lower bound).
 */
export function histogramPercentile(scale: HistogramScale, counts: ArrayLike<number>, q: number): number | null {
  let total = 0;
  for (let i = 0; i < counts.length; i++) total += counts[i] ?? 0;
  if (total <= 0) return null;
  const rank = Math.min(total, Math.max(1, Math.ceil(q * total)));
  let before = 0;
  for (let i = 0; i < counts.length; i++) {
    const count = counts[i] ?? 0;
    if (count <= 0) continue;
    if (before + count >= rank) {
      const position = (rank - before - 0.5) / count;
      const [lower, upper] = binBounds(scale, i);
      if (i === 0) return lower + (upper - lower) * position;
      if (!Number.isFinite(upper)) return lower;
      return lower * (upper / lower) ** position;
    }
    before += count;
  }
  return null;
}

/**
 * What happened on one call to an endpoint. `ok`: the endpoint served the request. `failure`:
 * the endpoint is to blame (5xx, 429, time-out, refused or reset connection). A refusal caused by
 * the caller (a 4xx such as 400, 413, 422) is `{ ok: false, failure: false }`: it counts neither
 * for nor against the endpoint. When both are set, `ok` wins.
 */
export interface HealthOutcome {
  ok: boolean;
  failure: boolean;
  /** Time to the first token (streams), milliseconds. */
  ttftMs?: number;
  /** Whole call, milliseconds. */
  latencyMs: number;
  outputTokens?: number;
  /** Time spent generating the output; defaults to latencyMs − ttftMs (or latencyMs). */
  generationMs?: number;
}

export const SampleKind = { Success: 0, Failure: 1, CallerError: 2 } as const;
export type SampleKind = (typeof SampleKind)[keyof typeof SampleKind];

/** An outcome reduced to the counters it touches; -1 means "no histogram sample". */
export interface Sample {
  kind: SampleKind;
  ttftBin: number;
  latencyBin: number;
  throughputBin: number;
}

function usable(value: number | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** Latencies and throughput are taken from successful calls only. */
export function toSample(outcome: HealthOutcome): Sample {
  const kind = outcome.ok ? SampleKind.Success : outcome.failure ? SampleKind.Failure : SampleKind.CallerError;
  const sample: Sample = { kind, ttftBin: -1, latencyBin: -1, throughputBin: -1 };
  if (kind !== SampleKind.Success) return sample;
  if (usable(outcome.ttftMs)) sample.ttftBin = binIndex(MS_SCALE, outcome.ttftMs);
  if (usable(outcome.latencyMs)) sample.latencyBin = binIndex(MS_SCALE, outcome.latencyMs);
  const generationMs = outcome.generationMs ?? (usable(outcome.ttftMs) ? outcome.latencyMs - outcome.ttftMs : outcome.latencyMs);
  if (usable(outcome.outputTokens) && outcome.outputTokens > 0 && usable(generationMs) && generationMs > 0) {
    sample.throughputBin = binIndex(TOKENS_PER_SECOND_SCALE, outcome.outputTokens / (generationMs / 1000));
  }
  return sample;
}

export interface StatsBucket {
  success: number;
  failure: number;
  callerError: number;
  ttft: Float64Array;
  latency: Float64Array;
  throughput: Float64Array;
}

export function emptyBucket(): StatsBucket {
  return {
    success: 0,
    failure: 0,
    callerError: 0,
    ttft: new Float64Array(MS_SCALE.bins),
    latency: new Float64Array(MS_SCALE.bins),
    throughput: new Float64Array(TOKENS_PER_SECOND_SCALE.bins),
  };
}

function clearBucket(bucket: StatsBucket): void {
  bucket.success = 0;
  bucket.failure = 0;
  bucket.callerError = 0;
  bucket.ttft.fill(0);
  bucket.latency.fill(0);
  bucket.throughput.fill(0);
}

export function applySample(bucket: StatsBucket, sample: Sample, sign = 1): void {
  if (sample.kind === SampleKind.Success) bucket.success += sign;
  else if (sample.kind === SampleKind.Failure) bucket.failure += sign;
  else bucket.callerError += sign;
  if (sample.ttftBin >= 0) bucket.ttft[sample.ttftBin] = (bucket.ttft[sample.ttftBin] ?? 0) + sign;
  if (sample.latencyBin >= 0) bucket.latency[sample.latencyBin] = (bucket.latency[sample.latencyBin] ?? 0) + sign;
  if (sample.throughputBin >= 0) bucket.throughput[sample.throughputBin] = (bucket.throughput[sample.throughputBin] ?? 0) + sign;
}

function addArray(target: Float64Array, source: Float64Array, sign: number): void {
  const n = Math.min(target.length, source.length);
  for (let i = 0; i < n; i++) {
    const value = source[i] ?? 0;
    if (value !== 0) target[i] = (target[i] ?? 0) + sign * value;
  }
}

export function mergeBucket(target: StatsBucket, source: StatsBucket, sign = 1): void {
  target.success += sign * source.success;
  target.failure += sign * source.failure;
  target.callerError += sign * source.callerError;
  addArray(target.ttft, source.ttft, sign);
  addArray(target.latency, source.latency, sign);
  addArray(target.throughput, source.throughput, sign);
}

/*
 * Wire form (Redis hash fields): s, f, c for the counters; t<i>, l<i>, p<i> for the non-empty
 * bins of the TTFT, latency and throughput histograms.
 */
const HISTOGRAM_FIELDS = [
  ['t', 'ttft'],
  ['l', 'latency'],
  ['p', 'throughput'],
] as const;

/** The non-zero fields of a bucket, as [field, count] pairs. */
export function bucketFields(bucket: StatsBucket): Array<[string, number]> {
  const fields: Array<[string, number]> = [];
  if (bucket.success) fields.push(['s', bucket.success]);
  if (bucket.failure) fields.push(['f', bucket.failure]);
  if (bucket.callerError) fields.push(['c', bucket.callerError]);
  for (const [prefix, name] of HISTOGRAM_FIELDS) {
    const bins = bucket[name];
    for (let i = 0; i < bins.length; i++) {
      const count = bins[i] ?? 0;
      if (count) fields.push([`${prefix}${i}`, count]);
    }
  }
  return fields;
}

/** Adds `count` to one wire field of a bucket; unknown fields are ignored. */
export function addField(bucket: StatsBucket, field: string, count: number): void {
  if (!Number.isFinite(count) || count === 0) return;
  if (field === 's') bucket.success += count;
  else if (field === 'f') bucket.failure += count;
  else if (field === 'c') bucket.callerError += count;
  else {
    for (const [prefix, name] of HISTOGRAM_FIELDS) {
      if (field[0] !== prefix) continue;
      const index = Number(field.slice(1));
      const bins = bucket[name];
      if (Number.isInteger(index) && index >= 0 && index < bins.length) bins[index] = (bins[index] ?? 0) + count;
      return;
    }
  }
}

export function bucketFromFields(hash: Record<string, string>): StatsBucket {
  const bucket = emptyBucket();
  for (const [field, value] of Object.entries(hash)) addField(bucket, field, Number(value));
  return bucket;
}

export function isEmptyBucket(bucket: StatsBucket): boolean {
  return bucket.success === 0 && bucket.failure === 0 && bucket.callerError === 0 && bucketFields(bucket).length === 0;
}

export interface HealthSummary {
  /** Calls that count for health: successes + endpoint failures (caller errors excluded). */
  samples: number;
  successes: number;
  failures: number;
  /** successes / samples, 0..1; null without samples. */
  successRate: number | null;
  /** successRate in percent (0..100); null without samples. */
  uptimePct: number | null;
  ttftP50: number | null;
  ttftP90: number | null;
  latencyP50: number | null;
  latencyP90: number | null;
  /** Output tokens per second. */
  throughputP50: number | null;
  throughputP90: number | null;
}

export function summarize(bucket: StatsBucket): HealthSummary {
  const samples = bucket.success + bucket.failure;
  const successRate = samples > 0 ? bucket.success / samples : null;
  return {
    samples,
    successes: bucket.success,
    failures: bucket.failure,
    successRate,
    uptimePct: successRate === null ? null : successRate * 100,
    ttftP50: histogramPercentile(MS_SCALE, bucket.ttft, 0.5),
    ttftP90: histogramPercentile(MS_SCALE, bucket.ttft, 0.9),
    latencyP50: histogramPercentile(MS_SCALE, bucket.latency, 0.5),
    latencyP90: histogramPercentile(MS_SCALE, bucket.latency, 0.9),
    throughputP50: histogramPercentile(TOKENS_PER_SECOND_SCALE, bucket.throughput, 0.5),
    throughputP90: histogramPercentile(TOKENS_PER_SECOND_SCALE, bucket.throughput, 0.9),
  };
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
