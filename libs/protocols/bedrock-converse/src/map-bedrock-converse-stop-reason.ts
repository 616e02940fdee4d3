import type { FinishReason, UnifiedFinishReason } from '@rosetta/canonical';

/** Converse's `stopReason` values (the API reference's StopReason enum). */
const UNIFIED: Readonly<Record<string, UnifiedFinishReason>> = {
  end_turn: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  stop_sequence: 'stop_sequence',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
  model_context_window_exceeded: 'context_window_exceeded',
  // The model produced output Bedrock could not read (text, or a tool call's input): a failure, as Gemini's MALFORMED_FUNCTION_CALL is.
  malformed_model_output: 'error',
  malformed_tool_use: 'error',
};

/** Converse `stopReason` → the unified reason, the raw value kept; a reason Bedrock adds later is `other`. */
export function mapBedrockConverseStopReason(raw: string | undefined): FinishReason {
  if (raw === undefined) return { unified: 'stop' };
  return { unified: UNIFIED[raw] ?? 'other', raw };
}
