/**
 * Token counts an upstream reports are money: the ledger stores them in `integer` columns, budgets
 * settle from them, `x-rosetta-cost-usd` prices them. A count that is not a whole number from 0 to
 * `MAX_TOKEN_COUNT` (negative, fractional, a string, 3e9) is not a usage an upstream can mean: the
 * answer is malformed, and fails the way a malformed body or stream event does (issue 26).
 */
import { GatewayError, type Usage } from '@rosetta/canonical';
import type { JsonObject } from './wire-guards';

/** The ledger's `integer` columns hold at most this; no context window comes near it. */
export const MAX_TOKEN_COUNT = 2_147_483_647;

/** The code a malformed usage fails with; the ledger row's error names it. */
export const MALFORMED_USAGE = 'malformed_usage';

export function malformedUsage(field: string): GatewayError {
  return new GatewayError('upstream_error', `Upstream service error: malformed usage (${field} is not a token count from 0 to ${MAX_TOKEN_COUNT})`, {
    status: 502,
    retryable: true,
    code: MALFORMED_USAGE,
  });
}

function isTokenCount(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= MAX_TOKEN_COUNT;
}

/**
 * The count at `key`: undefined when absent or null; anything but a token count throws
 * `malformedUsage` naming `field` (the key's path in the upstream's usage object).
 */
export function tokenCountField(obj: JsonObject, key: string, field: string = key): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !isTokenCount(value)) throw malformedUsage(field);
  return value;
}

/**
 * A usage whose totals (a provider's counts added up) still fit and hold their parts: cached and
 * cache-written input within the input, reasoning within the output. Returned as it is.
 */
export function checkedUsage(usage: Usage): Usage {
  if (!isTokenCount(usage.inputTokens)) throw malformedUsage('the input tokens added up');
  if (!isTokenCount(usage.outputTokens)) throw malformedUsage('the output tokens added up');
  if ((usage.cachedInputTokens ?? 0) + (usage.cacheCreationInputTokens ?? 0) > usage.inputTokens) throw malformedUsage('the cached input tokens (more than the input)');
  if ((usage.reasoningTokens ?? 0) > usage.outputTokens) throw malformedUsage('the reasoning tokens (more than the output)');
  return usage;
}
