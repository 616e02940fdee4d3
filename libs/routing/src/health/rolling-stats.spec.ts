import {
  binBounds,
  binIndex,
  bucketFields,
  bucketFromFields,
  emptyBucket,
  histogramPercentile,
  MINUTE_MS,
  MS_SCALE,
  RollingStats,
  summarize,
  TOKENS_PER_SECOND_SCALE,
  toSample,
  applySample,
} from './rolling-stats';

/** Nearest-rank percentile of raw samples: the reference the histogram must land near. */
function exactPercentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);

describe('histogram bins', () => {
  it('puts a value in the bin whose bounds hold it, on a log scale', () => {
    for (const value of [0, 0.5, 1, 1.18, 1.19, 2, 3, 100, 999, 1000, 65_536, 1_000_000]) {
      const index = binIndex(MS_SCALE, value);
      const [lower, upper] = binBounds(MS_SCALE, index);
      expect(value).toBeGreaterThanOrEqual(lower);
      expect(value).toBeLessThan(upper);
    }
    expect(binIndex(MS_SCALE, 2) - binIndex(MS_SCALE, 1)).toBe(MS_SCALE.binsPerDoubling);
    expect(binIndex(MS_SCALE, 1e12)).toBe(MS_SCALE.bins - 1);
    expect(binIndex(MS_SCALE, -5)).toBe(0);
  });

  it('answers null for an empty histogram', () => {
    expect(histogramPercentile(MS_SCALE, new Float64Array(MS_SCALE.bins), 0.5)).toBeNull();
  });
});

describe('percentiles from known samples', () => {
  function check(values: number[]): void {
    const stats = new RollingStats();
    for (const latencyMs of values) stats.record({ ok: true, failure: false, latencyMs }, T0);
    const summary = stats.summary(T0);
    for (const [q, got] of [
      [0.5, summary.latencyP50],
      [0.9, summary.latencyP90],
    ] as const) {
      const exact = exactPercentile(values, q);
      expect(got).not.toBeNull();
      // Within one bin: the estimate lies in the bin of the exact nearest-rank sample.
      expect(binIndex(MS_SCALE, got!)).toBe(binIndex(MS_SCALE, exact));
    }
  }

  it('uniform 1..1000 ms', () => {
    check(Array.from({ length: 1000 }, (_, i) => i + 1));
  });

  it('log-normal latencies', () => {
    const next = random(42);
    const values = Array.from({ length: 5000 }, () => {
      const normal = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
      return Math.exp(6 + 1.2 * normal);
    });
    check(values);
  });

  it('two clusters: p50 in the lower, p90 in the upper', () => {
    const values = [...Array<number>(60).fill(120), ...Array<number>(40).fill(4000)];
    const stats = new RollingStats();
    for (const latencyMs of values) stats.record({ ok: true, failure: false, latencyMs }, T0);
    const summary = stats.summary(T0);
    const [low50, high50] = binBounds(MS_SCALE, binIndex(MS_SCALE, 120));
    const [low90, high90] = binBounds(MS_SCALE, binIndex(MS_SCALE, 4000));
    expect(summary.latencyP50).toBeGreaterThanOrEqual(low50);
    expect(summary.latencyP50).toBeLessThan(high50);
    expect(summary.latencyP90).toBeGreaterThanOrEqual(low90);
    expect(summary.latencyP90).toBeLessThan(high90);
  });

  it('TTFT and throughput (output tokens over generation time)', () => {
    const stats = new RollingStats();
    // 200 tokens generated in 2 s after a 500 ms first token: 100 tok/s.
    for (let i = 0; i < 10; i++) stats.record({ ok: true, failure: false, ttftMs: 500, latencyMs: 2500, outputTokens: 200 }, T0);
    // Explicit generation time: 50 tokens in 1 s.
    stats.record({ ok: true, failure: false, latencyMs: 3000, outputTokens: 50, generationMs: 1000 }, T0);
    const summary = stats.summary(T0);
    expect(binIndex(MS_SCALE, summary.ttftP50!)).toBe(binIndex(MS_SCALE, 500));
    expect(binIndex(MS_SCALE, summary.latencyP90!)).toBe(binIndex(MS_SCALE, 2500));
    expect(binIndex(TOKENS_PER_SECOND_SCALE, summary.throughputP50!)).toBe(binIndex(TOKENS_PER_SECOND_SCALE, 100));
    const throughputOnly = new RollingStats();
    throughputOnly.record({ ok: true, failure: false, latencyMs: 3000, outputTokens: 50, generationMs: 1000 }, T0);
    expect(binIndex(TOKENS_PER_SECOND_SCALE, throughputOnly.summary(T0).throughputP50!)).toBe(binIndex(TOKENS_PER_SECOND_SCALE, 50));
  });
});

describe('success counting', () => {
  it('counts endpoint failures, ignores caller errors, and nulls what it has not seen', () => {
    const stats = new RollingStats();
    expect(stats.summary(T0)).toMatchObject({ samples: 0, successRate: null, uptimePct: null, latencyP50: null, ttftP90: null, throughputP50: null });
    for (let i = 0; i < 3; i++) stats.record({ ok: true, failure: false, latencyMs: 100 }, T0);
    stats.record({ ok: false, failure: true, latencyMs: 30_000 }, T0); // time-out
    for (let i = 0; i < 5; i++) stats.record({ ok: false, failure: false, latencyMs: 20 }, T0); // caller's 400
    const summary = stats.summary(T0);
    expect(summary).toMatchObject({ samples: 4, successes: 3, failures: 1, successRate: 0.75, uptimePct: 75 });
    // Latency is measured on successes only: the 30 s time-out and the fast 400s are not in it.
    expect(binIndex(MS_SCALE, summary.latencyP90!)).toBe(binIndex(MS_SCALE, 100));
  });
});

describe('the 30-minute window', () => {
  it('expires a minute 30 minutes later, and its latencies with it', () => {
    const stats = new RollingStats();
    stats.record({ ok: false, failure: true, latencyMs: 10 }, T0);
    stats.record({ ok: true, failure: false, latencyMs: 10 }, T0 + 5_000);
    stats.record({ ok: true, failure: false, latencyMs: 5000 }, T0 + 10 * MINUTE_MS);
    expect(stats.summary(T0 + 10 * MINUTE_MS).samples).toBe(3);
    expect(stats.summary(T0 + 29 * MINUTE_MS + 59_999).samples).toBe(3);
    const later = stats.summary(T0 + 30 * MINUTE_MS);
    expect(later).toMatchObject({ samples: 1, failures: 0, successRate: 1 });
    expect(binIndex(MS_SCALE, later.latencyP50!)).toBe(binIndex(MS_SCALE, 5000));
    expect(stats.summary(T0 + 40 * MINUTE_MS).samples).toBe(0);
    expect(stats.summary(T0 + 40 * MINUTE_MS).latencyP50).toBeNull();
  });

  it('clears everything after a long silence, and keeps counting afterwards', () => {
    const stats = new RollingStats();
    for (let i = 0; i < 10; i++) stats.record({ ok: true, failure: false, latencyMs: 50 }, T0 + i * MINUTE_MS);
    const later = T0 + 3 * 60 * MINUTE_MS;
    expect(stats.summary(later).samples).toBe(0);
    stats.record({ ok: false, failure: true, latencyMs: 1 }, later);
    expect(stats.summary(later)).toMatchObject({ samples: 1, failures: 1 });
  });

  it('ignores a minute already out of the window', () => {
    const stats = new RollingStats();
    stats.record({ ok: true, failure: false, latencyMs: 50 }, T0 + 40 * MINUTE_MS);
    stats.record({ ok: false, failure: true, latencyMs: 50 }, T0); // 40 minutes late
    expect(stats.summary(T0 + 40 * MINUTE_MS)).toMatchObject({ samples: 1, failures: 0 });
  });

  it('recent() counts only the last minutes', () => {
    const stats = new RollingStats();
    stats.record({ ok: false, failure: true, latencyMs: 1 }, T0);
    stats.record({ ok: true, failure: false, latencyMs: 1 }, T0 + 6 * MINUTE_MS);
    stats.record({ ok: false, failure: false, latencyMs: 1 }, T0 + 6 * MINUTE_MS);
    expect(stats.recent(T0 + 6 * MINUTE_MS, 5)).toEqual({ successes: 1, failures: 0, callerErrors: 1 });
    expect(stats.recent(T0 + 6 * MINUTE_MS, 10)).toEqual({ successes: 1, failures: 1, callerErrors: 1 });
  });
});

describe('buckets merge', () => {
  it('merging two halves equals recording everything in one place', () => {
    const next = random(7);
    const all = new RollingStats();
    const left = new RollingStats();
    const right = new RollingStats();
    for (let i = 0; i < 400; i++) {
      const outcome = { ok: next() > 0.1, failure: true, ttftMs: next() * 800, latencyMs: next() * 5000, outputTokens: Math.floor(next() * 500) };
      const at = T0 + Math.floor(next() * 20) * MINUTE_MS;
      all.record(outcome, at);
      (i % 2 ? left : right).record(outcome, at);
    }
    const now = T0 + 20 * MINUTE_MS;
    const merged = new RollingStats();
    for (const part of [left, right]) for (const { minute, bucket } of part.buckets(now)) merged.merge(minute, bucket);
    expect(merged.summary(now)).toEqual(all.summary(now));
  });

  it('round-trips through the Redis hash form', () => {
    const bucket = emptyBucket();
    applySample(bucket, toSample({ ok: true, failure: false, ttftMs: 300, latencyMs: 900, outputTokens: 120 }));
    applySample(bucket, toSample({ ok: false, failure: true, latencyMs: 900 }));
    applySample(bucket, toSample({ ok: false, failure: false, latencyMs: 900 }));
    const hash = Object.fromEntries(bucketFields(bucket).map(([field, count]) => [field, String(count)]));
    expect(hash).toMatchObject({ s: '1', f: '1', c: '1' });
    expect(summarize(bucketFromFields({ ...hash, unknown: '5', t999: '3' }))).toEqual(summarize(bucket));
  });
});
