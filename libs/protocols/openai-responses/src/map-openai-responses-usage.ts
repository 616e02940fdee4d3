import type { FinishReason, Usage } from '@rosetta/canonical';
import { checkedUsage, compact, isRecord, recordField, stringField, tokenCountField, type JsonObject } from '@rosetta/protocols/common';

/** Responses usage → canonical (the same convention: input includes cached, output reasoning). */
export function mapOpenAIResponsesUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const input = tokenCountField(raw, 'input_tokens');
  const output = tokenCountField(raw, 'output_tokens');
  if (input === undefined || output === undefined) return undefined;
  return checkedUsage(compact({
    inputTokens: input,
    outputTokens: output,
    cachedInputTokens: positive(recordField(raw, 'input_tokens_details'), 'cached_tokens', 'input_tokens_details.cached_tokens'),
    reasoningTokens: positive(recordField(raw, 'output_tokens_details'), 'reasoning_tokens', 'output_tokens_details.reasoning_tokens'),
  }));
}

function positive(details: JsonObject | undefined, key: string, field: string): number | undefined {
  const value = details && tokenCountField(details, key, field);
  return value ? value : undefined;
}

/** A finished response's status (and incomplete reason) → the canonical finish reason. */
export function mapOpenAIResponsesStatus(response: JsonObject, hasToolCalls: boolean): FinishReason {
  const status = stringField(response, 'status') ?? 'completed';
  if (status === 'incomplete') {
    const reason = stringField(recordField(response, 'incomplete_details') ?? {}, 'reason');
    return { unified: reason === 'content_filter' ? 'content_filter' : 'length', raw: reason ?? status };
  }
  if (status === 'failed') return { unified: 'error', raw: status };
  return { unified: hasToolCalls ? 'tool_calls' : 'stop', raw: status };
}
