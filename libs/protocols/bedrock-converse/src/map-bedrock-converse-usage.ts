/**
 * Converse usage → canonical usage.
 *
 * Bedrock's `inputTokens` leaves out the tokens read from and written to the prompt cache, as
 * Anthropic's `input_tokens` does; the canonical input total includes both. AWS's TokenUsage
 * reference does not say so in words ("the number of tokens sent in the request"), but every
 * integration that measured it found the same: Bedrock reports `cacheReadInputTokens` and
 * `cacheWriteInputTokens` beside `inputTokens`, not inside it (LiteLLM's Converse usage,
 * opencode's Bedrock usage fix, sashiko's "numbers a bit too good" fix, all adding them back).
 * One report (bifrost) saw ConverseStream for OpenAI-family models count the cache write inside
 * `inputTokens` as well; that is not corrected here, as no rule tells the two apart.
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
