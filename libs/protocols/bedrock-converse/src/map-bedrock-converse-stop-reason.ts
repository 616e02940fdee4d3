import type { FinishReason, UnifiedFinishReason } from '@rosetta/canonical';

const UNIFIED: Readonly<Record<string, UnifiedFinishReason>> = {
  end_turn: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  stop_sequence: 'stop_sequence',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
  model_context_window_exceeded: 'context_window_exceeded',
};

/** Converse `stopReason` → the unified reason, the raw value kept. */
export function mapBedrockConverseStopReason(raw: string | undefined): FinishReason {
  if (raw === undefined) return { unified: 'stop' };
  return { unified: UNIFIED[raw] ?? 'other', raw };
}
