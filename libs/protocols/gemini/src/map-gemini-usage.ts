/**
 * Gemini `usageMetadata` ⇄ canonical usage. Gemini's prompt count includes cached tokens (as the
 * canonical input does), but its candidates count excludes thoughts, which the canonical output
 * includes. Tool-use prompt tokens (from built-in tools) are input. Proto3 JSON leaves zero
 * counts out, so an absent count is 0.
 */
import type { Usage } from '@rosetta/canonical';
import { checkedUsage, compact, isRecord, tokenCountField } from '@rosetta/protocols/common';

export interface GeminiUsageMetadata {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
}

const COUNTS = ['promptTokenCount', 'candidatesTokenCount', 'totalTokenCount', 'thoughtsTokenCount', 'toolUsePromptTokenCount'];

/** Upstream `usageMetadata` → canonical; undefined when absent or without any count; a count that is no token count throws. */
export function mapGeminiUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw) || !COUNTS.some((key) => tokenCountField(raw, key) !== undefined)) return undefined;
  const count = (key: string): number => tokenCountField(raw, key) ?? 0;
  const thoughts = tokenCountField(raw, 'thoughtsTokenCount');
  return checkedUsage(compact({
    inputTokens: count('promptTokenCount') + count('toolUsePromptTokenCount'),
    outputTokens: count('candidatesTokenCount') + (thoughts ?? 0),
    cachedInputTokens: tokenCountField(raw, 'cachedContentTokenCount'),
    reasoningTokens: thoughts,
  }));
}

/** Canonical → dialect C; thoughts and cached counts only when known, as Gemini omits zeros. */
export function toGeminiUsage(usage: Usage): GeminiUsageMetadata {
  const thoughts = usage.reasoningTokens ?? 0;
  return compact({
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: Math.max(usage.outputTokens - thoughts, 0),
    totalTokenCount: usage.inputTokens + usage.outputTokens,
    thoughtsTokenCount: thoughts > 0 ? thoughts : undefined,
    cachedContentTokenCount: usage.cachedInputTokens ? usage.cachedInputTokens : undefined,
  });
}
