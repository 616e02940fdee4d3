/**
 * OpenAI `finish_reason` ⇄ canonical finish reason. OpenAI reports `stop` for both a natural end
 * and a stop sequence and never says which sequence fired, so decoding never yields
 * `stop_sequence`.
 */
import type { FinishReason, UnifiedFinishReason } from '@rosetta/canonical';

export type OpenAIChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

const FROM_WIRE: Record<string, UnifiedFinishReason> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
};

const TO_WIRE: Record<UnifiedFinishReason, OpenAIChatFinishReason> = {
  stop: 'stop',
  stop_sequence: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  content_filter: 'content_filter',
  refusal: 'content_filter',
  context_window_exceeded: 'length',
  pause: 'stop',
  error: 'stop',
  other: 'stop',
};

/**
 * Some OpenAI-compatible servers (Ollama, older vLLM) say `stop` after emitting tool calls; the
 * calls are what the client must act on, so they decide the unified reason.
 */
export function mapOpenAIChatFinishReason(raw: string | null | undefined, hasToolCalls: boolean): FinishReason {
  if (raw === null || raw === undefined) return { unified: hasToolCalls ? 'tool_calls' : 'stop' };
  const unified = FROM_WIRE[raw] ?? 'other';
  return { unified: unified === 'stop' && hasToolCalls ? 'tool_calls' : unified, raw };
}

export function toOpenAIChatFinishReason(reason: FinishReason): OpenAIChatFinishReason {
  return TO_WIRE[reason.unified];
}
