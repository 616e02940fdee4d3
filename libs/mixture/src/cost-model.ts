/**
 * Expected USD cost of one call. Fitted models: per model, cost = a[cluster] + b · promptTokens,
 * with the slope b from least squares on the within-cluster deviations (so clusters with long
 * answers, such as code, keep their own intercept) and the result floored at the cheapest call
 * observed. Catalog models without data: promptPrice · promptTokens + completionPrice · expected
 * output tokens for the prompt's category.
 *
 * Fitting the parameters is offline work, in @rosetta/mixture-lab (cost-fit.ts).
 */
import type { Candidate } from './types';

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
