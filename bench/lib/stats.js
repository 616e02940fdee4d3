'use strict';
// Percentiles and small summaries over latency samples (milliseconds, fractional).

/** Nearest-rank percentile of an ascending-sorted array; null when empty. */
function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** {count, mean, p50, p90, p99, p999, max} of the samples, rounded to microseconds. */
function summarise(samples) {
  const sorted = Float64Array.from(samples).sort();
  const count = sorted.length;
  const mean = count ? sorted.reduce((a, b) => a + b, 0) / count : null;
  return {
    count,
    mean: round(mean),
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    p999: round(percentile(sorted, 99.9)),
    max: round(count ? sorted[count - 1] : null),
  };
}

function round(value, digits = 3) {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** a − b, or null when either is missing. */
function diff(a, b) {
  return a === null || a === undefined || b === null || b === undefined ? null : round(a - b);
}

module.exports = { percentile, summarise, round, diff };
