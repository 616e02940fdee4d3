/** What a request costs: registry prices (USD per token, as decimal strings) applied to its usage. */
import type { Usage } from '@rosetta/canonical';

/** USD per token as decimal strings, the registry's pricing convention. */
export interface TokenPricing {
  prompt: string;
  completion: string;
  request?: string;
  input_cache_read?: string;
  input_cache_write?: string;
}

/**
 * Cost from registry pricing: cached input at the cache-read price where the endpoint has one,
 * cache writes at the cache-write price, the rest of the input at the prompt price, output
 * (reasoning included) at the completion price, plus any per-request price.
 */
interface NumericPricing {
  prompt: number;
  completion: number;
  request: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Prices as numbers, parsed once per pricing object (the registry snapshot's, reused by every request). */
const numericPricing = new WeakMap<TokenPricing, NumericPricing>();

function numeric(pricing: TokenPricing): NumericPricing {
  let parsed = numericPricing.get(pricing);
  if (parsed) return parsed;
  const price = (value: string | undefined): number => Number(value ?? 0) || 0;
  const prompt = price(pricing.prompt);
  parsed = {
    prompt,
    completion: price(pricing.completion),
    request: price(pricing.request),
    cacheRead: pricing.input_cache_read !== undefined ? price(pricing.input_cache_read) : prompt,
    cacheWrite: pricing.input_cache_write !== undefined ? price(pricing.input_cache_write) : prompt,
  };
  numericPricing.set(pricing, parsed);
  return parsed;
}

export function costUsd(usage: Usage | undefined, pricing: TokenPricing | undefined): number {
  if (!usage || !pricing) return 0;
  const p = numeric(pricing);
  const cached = usage.cachedInputTokens ?? 0;
  const written = usage.cacheCreationInputTokens ?? 0;
  const plainInput = Math.max(0, usage.inputTokens - cached - written);
  return roundUsd(plainInput * p.prompt + cached * p.cacheRead + written * p.cacheWrite + usage.outputTokens * p.completion + p.request);
}

/**
 * A dollar amount to the pico-dollar: what callers see as `usage.cost` then reads 0.000027, not
 * 0.000027000000000000002 (float products and sums), and no price is that fine.
 */
export function roundUsd(value: number): number {
  return Math.round(value * 1e12) / 1e12;
}

/** A cost within `capUsd` (when there is one), and what it went past it by. */
export function capCost(cost: number, capUsd: number | undefined): { charged: number; uncharged?: number } {
  if (capUsd === undefined || cost <= capUsd) return { charged: cost };
  return { charged: roundUsd(capUsd), uncharged: roundUsd(cost - capUsd) };
}
