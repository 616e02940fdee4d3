import type { StreamEvent } from '@rosetta/canonical';
import { fixtureEvents, fixtureJson, freezeNow, serializeEvents, type SerializedEvent, type SSEEvent } from './__fixtures__/load-fixture';
import { AnthropicMessagesStreamDecoder } from './anthropic-messages-stream-decoder';

function decode(events: SSEEvent[]): StreamEvent[] {
  const decoder = new AnthropicMessagesStreamDecoder();
  return [...events.flatMap((event) => decoder.push(event)), ...decoder.end()];
}

const ev = (type: string, fields: Record<string, unknown> = {}): SSEEvent => ({ event: type, data: { type, ...fields } });
const messageStart = ev('message_start', { message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 10, output_tokens: 1 } } });

beforeEach(() => freezeNow());
afterEach(() => jest.restoreAllMocks());

describe('AnthropicMessagesStreamDecoder', () => {
  it.each([
    ['anthropic-text', 'text, with cache reads and writes in the usage'],
    ['anthropic-tool-use', 'signed thinking, text, then a tool call streamed as input_json_delta fragments'],
    ['anthropic-parallel-tool-use', 'three tool calls, one without input'],
    ['anthropic-redacted-thinking', 'redacted thinking before signed thinking, with a thinking-token count'],
    ['anthropic-stop-sequence', 'a stop sequence, naming the one that fired'],
    ['anthropic-max-tokens', 'the output cap'],
    ['anthropic-refusal', 'a refusal'],
    ['anthropic-error', 'an overloaded error event mid-stream'],
    ['anthropic-stream-cut', 'a stream cut before message_stop'],
  ])('decodes %s (%s)', (name) => {
    expect(serializeEvents(decode(fixtureEvents(`${name}.events.jsonl`)))).toEqual(fixtureJson<SerializedEvent[]>(`${name}.canonical.json`));
  });

  it('emits finish exactly once, at message_stop, and nothing after it', () => {
    const decoder = new AnthropicMessagesStreamDecoder();
    const events = fixtureEvents('anthropic-text.events.jsonl');
    const last = events[events.length - 1] as SSEEvent;
    const before = events.slice(0, -1).flatMap((event) => decoder.push(event));
    expect(before.some((event) => event.type === 'finish')).toBe(false);
    expect(decoder.push(last).map((event) => event.type)).toEqual(['finish']);
    expect(decoder.push(last)).toEqual([]);
    expect(decoder.end()).toEqual([]);
  });

  it('overlays cumulative message_delta usage on the input counted at message_start', () => {
    const events = decode([
      ev('message_start', { message: { id: 'm', model: 'c', usage: { input_tokens: 50, cache_read_input_tokens: 1000, output_tokens: 1 } } }),
      ev('message_delta', { delta: { stop_reason: null }, usage: { output_tokens: 5 } }),
      ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9, input_tokens: 60, cache_read_input_tokens: null } }),
      ev('message_stop'),
    ]);
    expect(events.slice(1)).toEqual([
      { type: 'usage', usage: { inputTokens: 1050, outputTokens: 5, cachedInputTokens: 1000 } },
      { type: 'usage', usage: { inputTokens: 1060, outputTokens: 9, cachedInputTokens: 1000 } },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: { inputTokens: 1060, outputTokens: 9, cachedInputTokens: 1000 } },
    ]);
  });

  it('ignores pings, unknown events, citations and server-tool blocks, and closes blocks left open', () => {
    const events = decode([
      { event: 'ping', data: { type: 'ping' } },
      messageStart,
      ev('content_block_start', { index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} } }),
      ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"q":1}' } }),
      ev('content_block_stop', { index: 0 }),
      ev('content_block_start', { index: 1, content_block: { type: 'text', text: 'Pre' } }),
      ev('content_block_delta', { index: 1, delta: { type: 'citations_delta', citation: {} } }),
      ev('content_block_delta', { index: 1, delta: { type: 'thinking_delta', thinking: 'misplaced' } }),
      ev('future_event', { index: 1 }),
      ev('content_block_start', { index: 2, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      'not an event' as unknown as SSEEvent,
      ev('message_stop'),
    ]);
    expect(events).toEqual([
      { type: 'start', id: 'msg_1', model: 'claude', created: 1730000000, usage: { inputTokens: 10, outputTokens: 0 } },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, text: 'Pre' },
      { type: 'thinking-start', index: 2 },
      { type: 'text-end', index: 1 },
      { type: 'thinking-end', index: 2 },
      { type: 'finish', finishReason: { unified: 'other' }, usage: { inputTokens: 10, outputTokens: 1 } },
    ]);
  });

  it('sends a tool input given whole at the start when no fragments follow', () => {
    const events = decode([
      messageStart,
      ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } } }),
      ev('content_block_stop', { index: 0 }),
      ev('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_2', name: 'g', input: { stale: true } } }),
      ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"b":2}' } }),
      ev('content_block_stop', { index: 1 }),
    ]).filter((event) => event.type.startsWith('tool-call'));
    expect(events).toEqual([
      { type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":1}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'toolu_2', name: 'g' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"b":2}' },
      { type: 'tool-call-end', index: 1 },
    ]);
  });

  it('reports an error event before message_start as a retryable 502, and nothing after it', () => {
    const decoder = new AnthropicMessagesStreamDecoder();
    const [event, ...rest] = decoder.push({ event: 'error', data: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } } });
    expect(rest).toEqual([]);
    expect(event?.type === 'error' && { type: event.error.type, status: event.error.status, retryable: event.error.retryable, message: event.error.message }).toEqual({
      type: 'upstream_error',
      status: 502,
      retryable: true,
      message: 'Upstream service error: Internal server error',
    });
    expect(decoder.push(messageStart)).toEqual([]);
    expect(decoder.end()).toEqual([]);
  });
});
