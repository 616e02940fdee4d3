/**
 * OpenAI usage ⇄ canonical usage. OpenAI already counts the way the canonical model does:
 * `prompt_tokens` includes cached tokens and `completion_tokens` includes reasoning tokens.
 */
import { totalTokens, type Usage } from '@rosetta/canonical';
import type { CompletionUsage } from 'openai/resources/completions';
import { checkedUsage, compact, isRecord, recordField, tokenCountField } from '@rosetta/protocols/common';

/** Upstream `usage` → canonical; undefined when absent or without the two totals; a count that is no token count throws. */
export function mapOpenAIChatUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const inputTokens = tokenCountField(raw, 'prompt_tokens');
  const outputTokens = tokenCountField(raw, 'completion_tokens');
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  const promptDetails = recordField(raw, 'prompt_tokens_details');
  const completionDetails = recordField(raw, 'completion_tokens_details');
  return checkedUsage(compact({
    inputTokens,
    outputTokens,
    cachedInputTokens: promptDetails && tokenCountField(promptDetails, 'cached_tokens', 'prompt_tokens_details.cached_tokens'),
    cacheCreationInputTokens: promptDetails && tokenCountField(promptDetails, 'cache_write_tokens', 'prompt_tokens_details.cache_write_tokens'),
    reasoningTokens: completionDetails && tokenCountField(completionDetails, 'reasoning_tokens', 'completion_tokens_details.reasoning_tokens'),
  }));
}

/**
 * Canonical → dialect A, always with `total_tokens` and both detail objects, as OpenAI sends; plus
 * `cost` (USD, as OpenRouter adds it) when the gateway priced the answer.
 */
export function toOpenAIChatUsage(usage: Usage): CompletionUsage & { cost?: number } {
  const promptDetails: CompletionUsage.PromptTokensDetails = {
    cached_tokens: usage.cachedInputTokens ?? 0,
    audio_tokens: 0,
  };
  if (usage.cacheCreationInputTokens !== undefined) promptDetails.cache_write_tokens = usage.cacheCreationInputTokens;
  const mapped: CompletionUsage & { cost?: number } = {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: totalTokens(usage),
    prompt_tokens_details: promptDetails,
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
  if (usage.costUsd !== undefined) mapped.cost = usage.costUsd;
  return mapped;
}
