import { GatewayError, type StreamEvent } from '@rosetta/canonical';
import { accumulateMessage } from './__fixtures__/accumulate-message';
import { deserializeEvents, fixtureEvents, fixtureJson, sseFrames, type SerializedEvent } from './__fixtures__/load-fixture';
import { AnthropicMessagesStreamEncoder, type AnthropicMessagesStreamEncoderOptions } from './anthropic-messages-stream-encoder';

const OPTIONS = { id: 'msg_rosetta1', model: 'rosetta/claude-sonnet-4-5' };

function encode(events: StreamEvent[], options: AnthropicMessagesStreamEncoderOptions = OPTIONS): string {
  const encoder = new AnthropicMessagesStreamEncoder(options);
  return events.map((event) => encoder.encode(event)).join('');
}

const start: StreamEvent = { type: 'start', id: 'up', model: 'up-model', created: 1 };
/** The frames after message_start and ping, as [event, index, what] triples. */
function outline(text: string): unknown[] {
  return sseFrames(text)
    .slice(2)
    .map(({ event, data }) => {
      const d = data as { index?: number; content_block?: { type: string; id?: string }; delta?: Record<string, unknown> };
      if (!event?.startsWith('content_block')) return [event];
      const what = d.content_block ? (d.content_block.id ?? d.content_block.type) : d.delta && Object.values(d.delta)[1];
      return [event, d.index, what].filter((part) => part !== undefined);
    });
}

describe('AnthropicMessagesStreamEncoder', () => {
  it.each(['tool-use', 'parallel-tool-use', 'redacted-thinking', 'stop-sequence', 'error'])(
    'encodes the canonical events of anthropic-%s for a dialect-B client',
    (name) => {
      const events = deserializeEvents(fixtureJson<SerializedEvent[]>(`anthropic-${name}.canonical.json`));
      expect(sseFrames(encode(events))).toEqual(fixtureEvents(`dialect-b-${name}.events.jsonl`));
    },
  );

  it('holds interleaved tool calls back until the open block ends, keeping each call whole and in order', () => {
    const events = deserializeEvents(fixtureJson<SerializedEvent[]>('canonical-interleaved-tool-calls.json'));
    const text = encode(events, { id: 'msg_rosetta1', model: 'rosetta/gpt-4o-mini' });
    expect(sseFrames(text)).toEqual(fixtureEvents('dialect-b-interleaved-tool-calls.events.jsonl'));
    expect(accumulateMessage(sseFrames(text)).content).toEqual([
      { type: 'thinking', thinking: 'Two lookups. Go.', signature: '' },
      { type: 'tool_use', id: 'call_a', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'call_b', name: 'get_weather', input: { city: 'Tokyo' } },
    ]);
  });

  it('writes exact SSE frames, each with its event line', () => {
    const text = encode(
      [start, { type: 'text-start', index: 0 }, { type: 'text-delta', index: 0, text: 'Hi' }, { type: 'text-end', index: 0 }, { type: 'finish', finishReason: { unified: 'stop_sequence', stopSequence: '\n\nUser:' }, usage: { inputTokens: 7, outputTokens: 2 } }],
      { id: 'msg_1', model: 'rosetta/x' },
    );
    expect(text).toBe(
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"rosetta/x","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}\n\n' +
        'event: ping\ndata: {"type":"ping"}\n\n' +
        'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n' +
        'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n' +
        'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"stop_sequence","stop_sequence":"\\n\\nUser:"},"usage":{"input_tokens":7,"output_tokens":2,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}\n\n' +
        'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    );
  });

  it('flushes calls still waiting at finish, in order, and ends a tool turn with tool_use', () => {
    const text = encode([
      start,
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f' },
      { type: 'tool-call-start', index: 1, id: 'call_b', name: 'g' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"b":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '2}' },
      // The waiting call ends while the open one is still streaming: the open one must stay open.
      { type: 'tool-call-end', index: 1 },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '1}' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' } },
    ]);
    expect(outline(text)).toEqual([
      ['content_block_start', 0, 'call_a'],
      ['content_block_delta', 0, '{"a":'],
      ['content_block_delta', 0, '1}'],
      ['content_block_stop', 0],
      ['content_block_start', 1, 'call_b'],
      ['content_block_delta', 1, '{"b":'],
      ['content_block_delta', 1, '2}'],
      ['content_block_stop', 1],
      ['message_delta'],
      ['message_stop'],
    ]);
    const message = accumulateMessage(sseFrames(text));
    expect({ stop: message.stop_reason, inputs: message.content.map((block) => block['input']) }).toEqual({ stop: 'tool_use', inputs: [{ a: 1 }, { b: 2 }] });
    expect(message.usage).toEqual({ input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  it('renumbers blocks densely, ends refusal text when another block needs the wire, and wraps foreign signatures', () => {
    const text = encode([
      { type: 'refusal-delta', index: 3, text: 'Part refused.' },
      { type: 'thinking-start', index: 5 },
      { type: 'refusal-delta', index: 3, text: ' More.' },
      { type: 'thinking-delta', index: 5, text: 'Hm.' },
      { type: 'thinking-end', index: 5, signature: { protocol: 'gemini', value: 'CpcB/+x==' } },
      { type: 'redacted-thinking', index: 6, data: 'gemini-only', protocol: 'gemini' },
      { type: 'redacted-thinking', index: 7, data: 'anthropic-only', protocol: 'anthropic' },
      { type: 'text-delta', index: 9, text: 'Done.' },
      { type: 'usage', usage: { inputTokens: 30, outputTokens: 9, cachedInputTokens: 10 } },
      { type: 'finish', finishReason: { unified: 'content_filter', raw: 'content_filter' } },
    ]);
    const message = accumulateMessage(sseFrames(text));
    expect(message).toEqual({
      id: 'msg_rosetta1',
      type: 'message',
      role: 'assistant',
      model: 'rosetta/claude-sonnet-4-5',
      content: [
        { type: 'text', text: 'Part refused.' },
        { type: 'thinking', thinking: 'Hm.', signature: 'rosetta-sig.gemini.Q3BjQi8reD09' },
        { type: 'text', text: ' More.' },
        { type: 'redacted_thinking', data: 'anthropic-only' },
        { type: 'text', text: 'Done.' },
      ],
      stop_reason: 'refusal',
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 10 },
    });
  });

  it('sends an error event and nothing after it', () => {
    const encoder = new AnthropicMessagesStreamEncoder(OPTIONS);
    expect(encoder.encode({ type: 'error', error: new GatewayError('rate_limit_error', 'Slow down') })).toBe(
      'event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"Slow down"}}\n\n',
    );
    expect(encoder.encode(start)).toBe('');
    expect(encoder.encode({ type: 'finish', finishReason: { unified: 'stop' } })).toBe('');
  });

  it('sends nothing after message_stop', () => {
    const encoder = new AnthropicMessagesStreamEncoder(OPTIONS);
    expect(sseFrames(encoder.encode({ type: 'finish', finishReason: { unified: 'stop' } })).map((frame) => frame.event)).toEqual([
      'message_start',
      'ping',
      'message_delta',
      'message_stop',
    ]);
    expect(encoder.encode({ type: 'text-delta', index: 0, text: 'late' })).toBe('');
    expect(encoder.encode({ type: 'error', error: new GatewayError('api_error', 'late') })).toBe('');
  });
});
