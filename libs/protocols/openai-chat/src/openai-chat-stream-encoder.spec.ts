import { GatewayError, type StreamEvent } from '@rosetta/canonical';
import {
  deserializeEvents,
  fixtureJson,
  fixtureLines,
  sseDataFrames,
  type SerializedEvent,
} from './__fixtures__/load-fixture';
import { OpenAIChatStreamEncoder } from './openai-chat-stream-encoder';

const OPTIONS = { id: 'chatcmpl-rosetta-1', model: 'rosetta/gpt-4o-mini', created: 1730000100, includeUsage: true };

function encode(events: StreamEvent[], options = OPTIONS): string {
  const encoder = new OpenAIChatStreamEncoder(options);
  return events.map((event) => encoder.encode(event)).join('');
}

describe('OpenAIChatStreamEncoder', () => {
  it.each([
    'tool-call',
    'parallel-tool-calls',
    'reasoning',
    'length',
    'refusal',
    'content-filter',
    'error',
  ])('encodes the canonical events of openai-%s for a dialect-A client', (name) => {
    const events = deserializeEvents(fixtureJson<SerializedEvent[]>(`openai-${name}.events.json`));
    expect(sseDataFrames(encode(events))).toEqual(fixtureLines(`dialect-a-${name}.chunks.jsonl`));
  });

  it('writes exact SSE frames and ends with [DONE]', () => {
    const text = encode([
      { type: 'start', id: 'up', model: 'up-model', created: 1 },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Hi' },
      { type: 'text-end', index: 0 },
      { type: 'finish', finishReason: { unified: 'stop_sequence', stopSequence: '\n\nUser:' } },
    ], { ...OPTIONS, includeUsage: false });
    const envelope = '"id":"chatcmpl-rosetta-1","object":"chat.completion.chunk","created":1730000100,"model":"rosetta/gpt-4o-mini"';
    expect(text).toBe(
      `data: {${envelope},"choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":null}\n\n` +
        `data: {${envelope},"choices":[{"index":0,"delta":{"content":"Hi"},"logprobs":null,"finish_reason":null}],"usage":null}\n\n` +
        `data: {${envelope},"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null}\n\n` +
        'data: [DONE]\n\n',
    );
  });

  it('leaves out the usage chunk unless the client asked for it, and uses usage from a usage event', () => {
    const events: StreamEvent[] = [
      { type: 'start', id: 'up', model: 'm', created: 1 },
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 4 } },
      { type: 'finish', finishReason: { unified: 'context_window_exceeded' } },
    ];
    const envelope = { id: OPTIONS.id, object: 'chat.completion.chunk', created: OPTIONS.created, model: OPTIONS.model };
    expect(sseDataFrames(encode(events, { ...OPTIONS, includeUsage: false }))).toEqual([
      { ...envelope, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }], usage: null },
      { ...envelope, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'length' }], usage: null },
      '[DONE]',
    ]);
    const withUsage = sseDataFrames(encode(events));
    expect(withUsage[2]).toEqual({
      ...envelope,
      choices: [],
      usage: {
        prompt_tokens: 3,
        completion_tokens: 4,
        total_tokens: 7,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
    });
  });

  it('sends the role first even when no start event came, and nothing after the stream ended', () => {
    const encoder = new OpenAIChatStreamEncoder(OPTIONS);
    const frames = sseDataFrames(encoder.encode({ type: 'refusal-delta', index: 0, text: 'No.' }));
    expect(frames.map((frame) => (frame as { choices: { delta: unknown }[] }).choices[0]?.delta)).toEqual([
      { role: 'assistant', content: '' },
      { refusal: 'No.' },
    ]);
    expect(encoder.encode({ type: 'error', error: new GatewayError('upstream_error', 'boom', { code: 'x', param: 'p' }) })).toBe(
      'data: {"error":{"message":"boom","type":"upstream_error","code":"x","param":"p"}}\n\n',
    );
    expect(encoder.encode({ type: 'text-delta', index: 1, text: 'late' })).toBe('');
    expect(encoder.encode({ type: 'finish', finishReason: { unified: 'stop' } })).toBe('');
  });
});
