/**
 * Anthropic `stop_reason` ⇄ canonical finish reason. Anthropic names the stop sequence that fired,
 * so it is kept; and a turn that ends in tool calls must say `tool_use` to a dialect-B client, or
 * agents such as Claude Code stop instead of running the tools.
 */
import type { FinishReason, UnifiedFinishReason } from '@rosetta/canonical';
import type { StopReason } from '@anthropic-ai/sdk/resources/messages/messages';

export type AnthropicMessagesStopReason = StopReason;

const FROM_WIRE: Record<string, UnifiedFinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop_sequence',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  refusal: 'refusal',
  pause_turn: 'pause',
  model_context_window_exceeded: 'context_window_exceeded',
};

const TO_WIRE: Record<UnifiedFinishReason, StopReason> = {
  stop: 'end_turn',
  stop_sequence: 'stop_sequence',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
  refusal: 'refusal',
  context_window_exceeded: 'model_context_window_exceeded',
  pause: 'pause_turn',
  error: 'end_turn',
  other: 'end_turn',
};

/** A missing reason (a stream cut before message_delta said one) is `other`, not a clean stop. */
export function mapAnthropicMessagesStopReason(
  raw: string | null | undefined,
  stopSequence?: string | null,
): FinishReason {
  if (raw === null || raw === undefined) return { unified: 'other' };
  const unified = FROM_WIRE[raw] ?? 'other';
  const reason: FinishReason = { unified, raw };
  if (unified === 'stop_sequence' && typeof stopSequence === 'string') reason.stopSequence = stopSequence;
  return reason;
}

/**
 * `hasToolCalls`: the turn carries tool calls. Upstreams that report a natural stop beside calls
 * (Ollama, some vLLM builds) would otherwise reach the client as `end_turn`, which ends an agent's
 * loop with the calls unanswered.
 */
export function toAnthropicMessagesStopReason(reason: FinishReason, hasToolCalls = false): StopReason {
  const wire = TO_WIRE[reason.unified];
  return wire === 'end_turn' && hasToolCalls ? 'tool_use' : wire;
}
