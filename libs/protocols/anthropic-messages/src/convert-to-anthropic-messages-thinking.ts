/**
 * Thinking, the output cap and sampling for an Anthropic upstream, decided together because
 * Anthropic ties them: the budget is at least 1024 and below `max_tokens`; with thinking on,
 * `temperature` and `top_k` are refused, `top_p` must be at least 0.95 and tools cannot be forced;
 * and a history whose last tool-calling turn lacks its signed thinking is refused.
 */
import type { CanonicalRequest, Converted, TranslationWarning } from '@rosetta/canonical';
import type { ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages';
import { claudeThinkingBudget, CLAUDE_MIN_TOP_P_WITH_THINKING, isRecord } from '@rosetta/protocols/common';

export interface AnthropicMessagesGeneration {
  max_tokens: number;
  thinking?: ThinkingConfigParam;
  temperature?: number;
  top_p?: number;
  top_k?: number;
}

/** Why thinking was switched off for a history Anthropic would otherwise refuse. */
export const UNSIGNED_TOOL_TURN_WARNING: TranslationWarning = {
  feature: 'thinking',
  message: 'The last tool-calling turn has no Anthropic-signed thinking, which Anthropic requires; thinking disabled.',
};

/** A wire `thinking` setting that turns thinking on. */
export function thinkingOn(thinking: unknown): boolean {
  return isRecord(thinking) && (thinking['type'] === 'enabled' || thinking['type'] === 'adaptive');
}

/**
 * The last assistant turn of wire messages calls a tool but does not start with (signed or
 * redacted) thinking. With thinking on, Anthropic refuses such a history, so thinking has to go.
 * One rule for both paths: the rebuilt messages and a client's body forwarded as sent.
 */
export function lastToolTurnUnsigned(messages: unknown): boolean {
  if (!Array.isArray(messages)) return false;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message: unknown = messages[i];
    if (!isRecord(message) || message['role'] !== 'assistant') continue;
    const content = message['content'];
    if (!Array.isArray(content) || !content.some((block) => isRecord(block) && block['type'] === 'tool_use')) return false;
    const first: unknown = content[0];
    return !isRecord(first) || (first['type'] !== 'thinking' && first['type'] !== 'redacted_thinking');
  }
  return false;
}


export function convertToAnthropicMessagesThinking({
  request,
  defaultMaxTokens,
  unsignedToolTurn,
}: {
  request: CanonicalRequest;
  defaultMaxTokens: number;
  unsignedToolTurn: boolean;
}): Converted<AnthropicMessagesGeneration> {
  const warnings: TranslationWarning[] = [];
  const maxTokens = request.maxOutputTokens ?? defaultMaxTokens;
  const budget = thinkingBudget(request, unsignedToolTurn, warnings);
  if (budget === undefined) {
    const thinking: ThinkingConfigParam | undefined = request.thinking ? { type: 'disabled' } : undefined;
    return { value: { max_tokens: maxTokens, thinking, ...plainSampling(request, warnings) }, warnings };
  }
  return { value: { ...withBudget(budget, maxTokens, warnings), ...thinkingSampling(request, warnings) }, warnings };
}

/** The budget to think with, or undefined when thinking is off or has to be. */
function thinkingBudget(request: CanonicalRequest, unsignedToolTurn: boolean, warnings: TranslationWarning[]): number | undefined {
  const { thinking, toolChoice } = request;
  if (!thinking?.enabled) return undefined;
  if (unsignedToolTurn) {
    warnings.push(UNSIGNED_TOOL_TURN_WARNING);
    return undefined;
  }
  if (toolChoice?.type === 'required' || toolChoice?.type === 'tool') {
    warnings.push({ feature: 'thinking', message: 'Anthropic cannot think while a tool call is forced; thinking disabled.' });
    return undefined;
  }
  return claudeThinkingBudget(thinking, 'Anthropic', warnings);
}

/** The cap counts thinking too, so an answer still fits: the cap asked for comes on top of the budget. */
function withBudget(budget: number, maxTokens: number, warnings: TranslationWarning[]): AnthropicMessagesGeneration {
  let max = maxTokens;
  if (max <= budget) {
    max = budget + maxTokens;
    warnings.push({ feature: 'max_tokens', message: `max_tokens raised from ${maxTokens} to ${max} to exceed the thinking budget of ${budget}.` });
  }
  return { max_tokens: max, thinking: { type: 'enabled', budget_tokens: budget } };
}

function plainSampling(request: CanonicalRequest, warnings: TranslationWarning[]): Omit<AnthropicMessagesGeneration, 'max_tokens'> {
  const sampling: Omit<AnthropicMessagesGeneration, 'max_tokens'> = {};
  const { temperature } = request;
  if (temperature !== undefined) {
    sampling.temperature = Math.min(1, Math.max(0, temperature));
    if (sampling.temperature !== temperature) {
      warnings.push({ feature: 'temperature', message: `Anthropic takes a temperature from 0 to 1; ${temperature} was clamped to ${sampling.temperature}.` });
    }
  }
  if (request.topP !== undefined) sampling.top_p = request.topP;
  if (request.topK !== undefined) sampling.top_k = request.topK;
  return sampling;
}

function thinkingSampling(request: CanonicalRequest, warnings: TranslationWarning[]): Omit<AnthropicMessagesGeneration, 'max_tokens'> {
  const sampling: Omit<AnthropicMessagesGeneration, 'max_tokens'> = {};
  if (request.temperature !== undefined) {
    warnings.push({ feature: 'temperature', message: 'Anthropic refuses a temperature while thinking; dropped.' });
  }
  if (request.topK !== undefined) {
    warnings.push({ feature: 'top_k', message: 'Anthropic refuses top_k while thinking; dropped.' });
  }
  if (request.topP !== undefined) {
    sampling.top_p = Math.max(CLAUDE_MIN_TOP_P_WITH_THINKING, request.topP);
    if (sampling.top_p !== request.topP) {
      warnings.push({ feature: 'top_p', message: `Anthropic takes top_p of at least 0.95 while thinking; ${request.topP} was raised.` });
    }
  }
  return sampling;
}
