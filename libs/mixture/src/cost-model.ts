/**
 * Expected USD cost of one call. Fitted models: per model, cost = a[cluster] + b · promptTokens,
 * with the slope b from least squares on the within-cluster deviations (so clusters with long
 * answers, such as code, keep their own intercept) and the result floored at the cheapest call
 * observed. Catalog models without data: promptPrice · promptTokens + completionPrice · expected
 * output tokens for the prompt's category.
 */
import { countPromptTokens } from './tokens';
import type { Candidate, LabelledRow } from './types';

export interface CostParams {
  models: string[];
  clusters: string[];
  /** USD per prompt token, per model. */
  slope: number[];
  /** intercept[cluster][model]; the last row (index = clusters.length) is the all-rows fit. */
  intercept: number[][];
  floor: number[];
}

/** Typical completion lengths (tokens) by prompt category, for catalog pricing. */
export const EXPECTED_OUTPUT_TOKENS: Record<string, number> = {
  choice: 8,
  coding: 350,
  math: 300,
  reasoning: 250,
  extraction: 200,
  writing: 500,
  roleplay: 300,
  stem: 300,
  humanities: 400,
  default: 300,
};

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

/** Expected cost of fitted model `j` for a prompt of `tokens` tokens in cluster `cluster` (-1: unknown). */
export function fittedCost(params: CostParams, j: number, cluster: number, tokens: number): number {
  const row = cluster >= 0 && cluster < params.clusters.length ? cluster : params.clusters.length;
  const a = (params.intercept[row] as number[])[j] as number;
  return Math.max(params.floor[j] as number, a + (params.slope[j] as number) * tokens);
}

/** Expected cost of a catalog candidate from its prices (USD per token). */
export function catalogCost(candidate: Candidate, tokens: number, outputKind: string): number {
  const out = EXPECTED_OUTPUT_TOKENS[outputKind] ?? (EXPECTED_OUTPUT_TOKENS.default as number);
  return (candidate.promptPrice ?? 0) * tokens + (candidate.completionPrice ?? 0) * out;
}
