/**
 * Anthropic usage ⇄ canonical usage. Anthropic's `input_tokens` leaves out the tokens read from
 * and written to the prompt cache; the canonical input total includes both.
 */
import type { Usage } from '@rosetta/canonical';
import { checkedUsage, compact, isRecord, recordField, tokenCountField } from '@rosetta/protocols/common';

/** The usage object a dialect-B client reads, in a response and in the final message_delta. */
export interface AnthropicMessagesUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** Upstream `usage` → canonical; undefined when absent or without input and output counts; a count that is no token count throws. */
export function mapAnthropicMessagesUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const input = tokenCountField(raw, 'input_tokens');
  const outputTokens = tokenCountField(raw, 'output_tokens');
  if (input === undefined || outputTokens === undefined) return undefined;
  const cacheCreation = tokenCountField(raw, 'cache_creation_input_tokens');
  const cacheRead = tokenCountField(raw, 'cache_read_input_tokens');
  const details = recordField(raw, 'output_tokens_details');
  return checkedUsage(compact({
    inputTokens: input + (cacheCreation ?? 0) + (cacheRead ?? 0),
    outputTokens,
    cachedInputTokens: cacheRead,
    cacheCreationInputTokens: cacheCreation,
    reasoningTokens: details && tokenCountField(details, 'thinking_tokens', 'output_tokens_details.thinking_tokens'),
  }));
}

/** Canonical → dialect B, always with both cache counters, as Anthropic sends them. */
export function toAnthropicMessagesUsage(usage: Usage): AnthropicMessagesUsage {
  const cacheRead = usage.cachedInputTokens ?? 0;
  const cacheCreation = usage.cacheCreationInputTokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.inputTokens - cacheRead - cacheCreation),
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: cacheCreation,
    cache_read_input_tokens: cacheRead,
  };
}
