import { binIndex, histogramPercentile, MS_SCALE, TOKENS_PER_SECOND_SCALE } from './histogram';

/**
 * One minute of an endpoint's calls: plain counters (successes, endpoint failures, caller errors)
 * and three histograms, so buckets merge by adding counters index by index — across minutes, and
 * across replicas through Redis hashes (`bucketFields` / `bucketFromFields`).
 */

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

export function clearBucket(bucket: StatsBucket): void {
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
