/**
 * Log-scale histograms with fixed bins: what an endpoint's time to first token, latency and
 * throughput are counted in (see stats-bucket.ts), and percentiles read from them.
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
