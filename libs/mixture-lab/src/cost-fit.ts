/**
 * Fitting the cost model (read by `fittedCost` in @rosetta/mixture's cost-model.ts): per model, the
 * slope by least squares on within-cluster deviations, an intercept per cluster plus one over all
 * rows, and a floor at the cheapest call observed; six significant digits keep the artefact small.
 */
import { type CostParams, type LabelledRow, countPromptTokens } from '@rosetta/mixture';

const sig = (x: number): number => Number(x.toPrecision(6));

function slopeOf(xs: number[], ys: number[], groups: number[]): number {
  const meanX = new Map<number, [number, number]>();
  const meanY = new Map<number, number>();
  groups.forEach((g, i) => {
    const [sx, n] = meanX.get(g) ?? [0, 0];
    meanX.set(g, [sx + (xs[i] as number), n + 1]);
    meanY.set(g, (meanY.get(g) ?? 0) + (ys[i] as number));
  });
  let sxy = 0;
  let sxx = 0;
  groups.forEach((g, i) => {
    const [sx, n] = meanX.get(g) as [number, number];
    const dx = (xs[i] as number) - sx / n;
    const dy = (ys[i] as number) - (meanY.get(g) as number) / n;
    sxy += dx * dy;
    sxx += dx * dx;
  });
  return sxx > 0 ? Math.max(0, sxy / sxx) : 0;
}

export function fitCostModel(rows: LabelledRow[], models: string[], tokensOf: (prompt: string) => number = (p) => countPromptTokens(p).tokens): CostParams {
  const clusters = [...new Set(rows.map((r) => r.task ?? 'default'))].sort();
  const group = rows.map((r) => clusters.indexOf(r.task ?? 'default'));
  const tokens = rows.map((r) => tokensOf(r.prompt));
  const slope: number[] = [];
  const floor: number[] = [];
  const intercept: number[][] = [...clusters, 'all'].map(() => []);
  for (const m of models) {
    const ys = rows.map((r) => r.costs[m] ?? 0);
    const b = slopeOf(tokens, ys, group);
    slope.push(sig(b));
    const positive = ys.filter((y) => y > 0);
    floor.push(positive.length > 0 ? sig(positive.reduce((a, y) => Math.min(a, y), Infinity)) : 0);
    for (let c = 0; c <= clusters.length; c++) {
      const idx = group.map((g, i) => (c === clusters.length || g === c ? i : -1)).filter((i) => i >= 0);
      const a = idx.reduce((s, i) => s + (ys[i] as number) - b * (tokens[i] as number), 0) / Math.max(1, idx.length);
      (intercept[c] as number[]).push(sig(a));
    }
  }
  return { models, clusters, slope, intercept, floor };
}
