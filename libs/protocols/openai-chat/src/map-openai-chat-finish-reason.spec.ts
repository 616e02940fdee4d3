import type { UnifiedFinishReason } from '@rosetta/canonical';
import { mapOpenAIChatFinishReason, toOpenAIChatFinishReason } from './map-openai-chat-finish-reason';

describe('mapOpenAIChatFinishReason', () => {
  it.each([
    ['stop', false, { unified: 'stop', raw: 'stop' }],
    ['stop', true, { unified: 'tool_calls', raw: 'stop' }],
    ['length', false, { unified: 'length', raw: 'length' }],
    ['length', true, { unified: 'length', raw: 'length' }],
    ['tool_calls', true, { unified: 'tool_calls', raw: 'tool_calls' }],
    ['function_call', true, { unified: 'tool_calls', raw: 'function_call' }],
    ['content_filter', false, { unified: 'content_filter', raw: 'content_filter' }],
    ['abort', false, { unified: 'other', raw: 'abort' }],
    [null, false, { unified: 'stop' }],
    [undefined, true, { unified: 'tool_calls' }],
  ])('%s (tool calls: %s) → %j', (raw, hasToolCalls, expected) => {
    expect(mapOpenAIChatFinishReason(raw, hasToolCalls)).toEqual(expected);
  });
});

describe('toOpenAIChatFinishReason', () => {
  it.each<[UnifiedFinishReason, string]>([
    ['stop', 'stop'],
    ['stop_sequence', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool_calls'],
    ['content_filter', 'content_filter'],
    ['refusal', 'content_filter'],
    ['context_window_exceeded', 'length'],
    ['pause', 'stop'],
    ['error', 'stop'],
    ['other', 'stop'],
  ])('%s → %s', (unified, wire) => {
    expect(toOpenAIChatFinishReason({ unified, raw: 'anything' })).toBe(wire);
  });
});
