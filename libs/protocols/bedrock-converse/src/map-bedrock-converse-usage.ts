/**
 * Converse usage → canonical usage. Bedrock's `inputTokens` leaves out the tokens read from and
 * written to the prompt cache (`cacheReadInputTokens`, `cacheWriteInputTokens`; `totalTokens` is
 * the sum of all four), as Anthropic's `input_tokens` does; the canonical input total includes both.
 */
import type { Usage } from '@rosetta/canonical';
import { checkedUsage, compact, isRecord, tokenCountField } from '@rosetta/protocols/common';

/** Undefined when absent or without input and output counts; a count that is no token count throws. */
export function mapBedrockConverseUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const input = tokenCountField(raw, 'inputTokens');
  const outputTokens = tokenCountField(raw, 'outputTokens');
  if (input === undefined || outputTokens === undefined) return undefined;
  const cacheRead = tokenCountField(raw, 'cacheReadInputTokens');
  const cacheWrite = tokenCountField(raw, 'cacheWriteInputTokens');
  return checkedUsage(compact({
    inputTokens: input + (cacheRead ?? 0) + (cacheWrite ?? 0),
    outputTokens,
    cachedInputTokens: cacheRead || undefined,
    cacheCreationInputTokens: cacheWrite || undefined,
  }));
}
