import type { UnifiedFinishReason } from '@rosetta/canonical';
import { mapAnthropicMessagesStopReason, toAnthropicMessagesStopReason } from './map-anthropic-messages-stop-reason';

describe('mapAnthropicMessagesStopReason', () => {
  it.each([
    ['end_turn', null, { unified: 'stop', raw: 'end_turn' }],
    ['stop_sequence', '\n\nHuman:', { unified: 'stop_sequence', raw: 'stop_sequence', stopSequence: '\n\nHuman:' }],
    ['stop_sequence', null, { unified: 'stop_sequence', raw: 'stop_sequence' }],
    ['end_turn', 'ignored', { unified: 'stop', raw: 'end_turn' }],
    ['max_tokens', null, { unified: 'length', raw: 'max_tokens' }],
    ['tool_use', null, { unified: 'tool_calls', raw: 'tool_use' }],
    ['refusal', null, { unified: 'refusal', raw: 'refusal' }],
    ['pause_turn', null, { unified: 'pause', raw: 'pause_turn' }],
    ['model_context_window_exceeded', null, { unified: 'context_window_exceeded', raw: 'model_context_window_exceeded' }],
    ['compaction', null, { unified: 'other', raw: 'compaction' }],
    [null, null, { unified: 'other' }],
  ])('%s (sequence %j) → %j', (raw, sequence, expected) => {
    expect(mapAnthropicMessagesStopReason(raw, sequence)).toEqual(expected);
  });
});

describe('toAnthropicMessagesStopReason', () => {
  it.each<[UnifiedFinishReason, string, string]>([
    ['stop', 'end_turn', 'tool_use'],
    ['stop_sequence', 'stop_sequence', 'stop_sequence'],
    ['length', 'max_tokens', 'max_tokens'],
    ['tool_calls', 'tool_use', 'tool_use'],
    ['content_filter', 'refusal', 'refusal'],
    ['refusal', 'refusal', 'refusal'],
    ['context_window_exceeded', 'model_context_window_exceeded', 'model_context_window_exceeded'],
    ['pause', 'pause_turn', 'pause_turn'],
    ['error', 'end_turn', 'tool_use'],
    ['other', 'end_turn', 'tool_use'],
  ])('%s → %s, or %s beside tool calls', (unified, wire, withCalls) => {
    expect(toAnthropicMessagesStopReason({ unified, raw: 'anything' })).toBe(wire);
    expect(toAnthropicMessagesStopReason({ unified }, true)).toBe(withCalls);
  });
});
