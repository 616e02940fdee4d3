/**
 * A Gemini-signed tool call shown to a dialect-A client, streamed or not, and sent back as history:
 * the signature rides in reasoning_details and must land back on the call, not in thinking.
 */
import type { CanonicalResponse, StreamEvent } from '@rosetta/canonical';
import { wrapCallSignature } from '@rosetta/protocols/common';
import { convertOpenAIChatRequest } from './convert-openai-chat-request';
import { convertToOpenAIChatResponse } from './convert-to-openai-chat-response';
import { OpenAIChatStreamEncoder } from './openai-chat-stream-encoder';

const GEMINI = { protocol: 'gemini' as const, value: 'CiQBsigned/+==' };
const CARRIER = { type: 'reasoning.encrypted', data: wrapCallSignature(GEMINI), id: 'call_1', format: 'rosetta-v1', index: 0 };

const response: CanonicalResponse = {
  id: 'chatcmpl-1',
  model: 'rosetta/gemini-3-pro',
  created: 1,
  content: [
    { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', signature: GEMINI },
    { type: 'tool_call', id: 'call_2', name: 'get_time', arguments: '{"tz":"CET"}' },
  ],
  finishReason: { unified: 'tool_calls', raw: 'STOP' },
};

const EXPECTED_MESSAGE = {
  role: 'assistant',
  content: null,
  refusal: null,
  annotations: [],
  tool_calls: [
    { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
    { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{"tz":"CET"}' } },
  ],
  reasoning_details: [CARRIER],
};

const EXPECTED_HISTORY = {
  role: 'assistant',
  content: [
    { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', signature: { protocol: 'gemini', value: 'CiQBsigned/+==' } },
    { type: 'tool_call', id: 'call_2', name: 'get_time', arguments: '{"tz":"CET"}' },
  ],
};

function decodeHistory(message: unknown): unknown {
  const body = {
    model: 'rosetta/x',
    messages: [
      { role: 'user', content: 'Weather and time?' },
      message,
      { role: 'tool', tool_call_id: 'call_1', content: '18C' },
      { role: 'tool', tool_call_id: 'call_2', content: '12:00' },
    ],
  };
  return convertOpenAIChatRequest({ body }).value.messages[1];
}

interface Chunk {
  choices: { delta: Record<string, unknown> & { tool_calls?: { index: number; id?: string; function: { name?: string; arguments: string } }[] } }[];
}

/** Rebuilds the assistant message a client keeps from the chunks, reasoning_details included. */
function accumulate(text: string): Record<string, unknown> {
  const calls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] = [];
  const details: unknown[] = [];
  const chunks = text.split('\n\n').filter((frame) => frame.startsWith('data: {')).map((frame) => JSON.parse(frame.slice(6)) as Chunk);
  for (const { delta } of chunks.flatMap((chunk) => chunk.choices)) {
    details.push(...((delta['reasoning_details'] as unknown[] | undefined) ?? []));
    for (const call of delta.tool_calls ?? []) {
      const slot = (calls[call.index] ??= { id: call.id ?? '', type: 'function', function: { name: call.function.name ?? '', arguments: '' } });
      slot.function.arguments += call.function.arguments;
    }
  }
  return { role: 'assistant', content: null, tool_calls: calls, reasoning_details: details };
}

const STREAM: StreamEvent[] = [
  { type: 'start', id: 'up', model: 'gemini-3-pro', created: 1 },
  { type: 'tool-call-start', index: 0, id: 'call_1', name: 'get_weather', signature: GEMINI },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":"Paris"}' },
  { type: 'tool-call-end', index: 0 },
  { type: 'tool-call-start', index: 1, id: 'call_2', name: 'get_time' },
  { type: 'tool-call-delta', index: 1, argumentsDelta: '{"tz":"CET"}' },
  { type: 'tool-call-end', index: 1 },
  { type: 'finish', finishReason: { unified: 'tool_calls', raw: 'STOP' } },
];

describe('a foreign tool-call signature through dialect A', () => {
  it('rides in reasoning_details, naming its call, and comes back onto the call', () => {
    const message = (convertToOpenAIChatResponse({ response }) as { choices: { message: unknown }[] }).choices[0]?.message;
    expect(message).toEqual(EXPECTED_MESSAGE);
    expect(decodeHistory(message)).toEqual(EXPECTED_HISTORY);
  });

  it('streams the entry with the call’s first fragment', () => {
    const encoder = new OpenAIChatStreamEncoder({ id: 'c', model: 'm', created: 1, includeUsage: false });
    const text = STREAM.map((event) => encoder.encode(event)).join('');
    const first = JSON.parse(text.split('\n\n')[1]?.slice(6) ?? '') as Chunk;
    expect(first.choices[0]?.delta).toEqual({
      tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }],
      reasoning_details: [CARRIER],
    });
    const message = accumulate(text);
    expect(message).toEqual({ role: 'assistant', content: null, tool_calls: EXPECTED_MESSAGE.tool_calls, reasoning_details: [CARRIER] });
    expect(decodeHistory(message)).toEqual(EXPECTED_HISTORY);
  });

  it('numbers the entry after signed thinking, which keeps its own place', () => {
    const signedThinking = { type: 'thinking' as const, text: 'Plan.', signature: { protocol: 'anthropic' as const, value: 'EqQB' } };
    const withThinking: CanonicalResponse = { ...response, content: [signedThinking, ...response.content] };
    const message = (convertToOpenAIChatResponse({ response: withThinking }) as { choices: { message: Record<string, unknown> }[] }).choices[0]?.message;
    expect(message?.['reasoning_details']).toEqual([
      { type: 'reasoning.text', text: 'Plan.', signature: expect.stringMatching(/^rosetta-sig\.anthropic\./), format: 'rosetta-v1', index: 0 },
      { ...CARRIER, index: 1 },
    ]);
    expect(decodeHistory(message)).toEqual({ ...EXPECTED_HISTORY, content: [signedThinking, ...EXPECTED_HISTORY.content] });
  });

  it('adds nothing for a native or unsigned call', () => {
    const native: CanonicalResponse = {
      ...response,
      content: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{}', signature: { protocol: 'openai', value: 'x' } }],
    };
    const message = (convertToOpenAIChatResponse({ response: native }) as { choices: { message: Record<string, unknown> }[] }).choices[0]?.message;
    expect(message?.['reasoning_details']).toBeUndefined();
    const encoder = new OpenAIChatStreamEncoder({ id: 'c', model: 'm', created: 1, includeUsage: false });
    expect(encoder.encode({ type: 'tool-call-start', index: 0, id: 'call_2', name: 'f' })).not.toContain('reasoning_details');
  });

  it('drops an entry whose call is not in the turn, and leaves other encrypted entries as redacted thinking', () => {
    const message = {
      role: 'assistant',
      content: 'Done.',
      reasoning_details: [
        { ...CARRIER, id: 'call_9' },
        { type: 'reasoning.encrypted', data: 'opaque', format: 'rosetta-v1', index: 1 },
      ],
    };
    expect(decodeHistory(message)).toEqual({
      role: 'assistant',
      content: [
        { type: 'redacted_thinking', data: 'opaque', protocol: 'openai' },
        { type: 'text', text: 'Done.' },
      ],
    });
  });
});
