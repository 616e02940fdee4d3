/**
 * A Gemini-signed tool call shown to a dialect-B client, streamed or not, and sent back as history:
 * the signature must land back on the call, and no carrier may ever reach Anthropic.
 */
import type { CanonicalRequest, CanonicalResponse, StreamEvent } from '@rosetta/canonical';
import { wrapCallSignature } from '@rosetta/protocols/common';
import { accumulateMessage } from './__fixtures__/accumulate-message';
import { sseFrames } from './__fixtures__/load-fixture';
import { AnthropicMessagesStreamEncoder } from './anthropic-messages-stream-encoder';
import { convertAnthropicMessagesRequest } from './convert-anthropic-messages-request';
import { convertToAnthropicMessagesRequest } from './convert-to-anthropic-messages-request';
import { convertToAnthropicMessagesResponse } from './convert-to-anthropic-messages-response';

const GEMINI = { protocol: 'gemini' as const, value: 'CiQBsigned/+==' };
const CARRIER = { type: 'thinking', thinking: '', signature: wrapCallSignature(GEMINI) };

const response: CanonicalResponse = {
  id: 'msg_1',
  model: 'rosetta/gemini-3-pro',
  created: 1,
  content: [
    { type: 'text', text: 'Checking.' },
    { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', signature: GEMINI },
    { type: 'tool_call', id: 'call_2', name: 'get_time', arguments: '{"tz":"CET"}' },
  ],
  finishReason: { unified: 'tool_calls', raw: 'STOP' },
  usage: { inputTokens: 3, outputTokens: 4 },
};

const EXPECTED_CONTENT = [
  { type: 'text', text: 'Checking.' },
  CARRIER,
  { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
  { type: 'tool_use', id: 'call_2', name: 'get_time', input: { tz: 'CET' } },
];

const EXPECTED_HISTORY = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'Checking.' },
    { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', signature: { protocol: 'gemini', value: 'CiQBsigned/+==' } },
    { type: 'tool_call', id: 'call_2', name: 'get_time', arguments: '{"tz":"CET"}' },
  ],
};

function historyBody(assistantContent: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: 'rosetta/x',
    max_tokens: 100,
    ...extra,
    messages: [
      { role: 'user', content: 'Weather and time?' },
      { role: 'assistant', content: assistantContent },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: '18C' },
          { type: 'tool_result', tool_use_id: 'call_2', content: '12:00' },
        ],
      },
    ],
  };
}

function decodeHistory(assistantContent: unknown[]): unknown {
  return convertAnthropicMessagesRequest({ body: historyBody(assistantContent) }).value.messages[1];
}

function streamContent(events: StreamEvent[]): unknown[] {
  const encoder = new AnthropicMessagesStreamEncoder({ id: 'msg_1', model: 'rosetta/gemini-3-pro' });
  return accumulateMessage(sseFrames(events.map((event) => encoder.encode(event)).join(''))).content;
}

const STREAM: StreamEvent[] = [
  { type: 'start', id: 'up', model: 'gemini-3-pro', created: 1 },
  { type: 'text-start', index: 0 },
  { type: 'text-delta', index: 0, text: 'Checking.' },
  { type: 'text-end', index: 0 },
  { type: 'tool-call-start', index: 1, id: 'call_1', name: 'get_weather', signature: GEMINI },
  { type: 'tool-call-delta', index: 1, argumentsDelta: '{"city":"Paris"}' },
  { type: 'tool-call-end', index: 1 },
  { type: 'tool-call-start', index: 2, id: 'call_2', name: 'get_time' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '{"tz":"CET"}' },
  { type: 'tool-call-end', index: 2 },
  { type: 'finish', finishReason: { unified: 'tool_calls', raw: 'STOP' } },
];

describe('a foreign tool-call signature through dialect B', () => {
  it('rides in an empty thinking block just before its tool_use, and comes back onto the call', () => {
    const wire = convertToAnthropicMessagesResponse({ response });
    expect(wire['content']).toEqual(EXPECTED_CONTENT);
    expect(wire['stop_reason']).toBe('tool_use');
    expect(decodeHistory(wire['content'] as unknown[])).toEqual(EXPECTED_HISTORY);
  });

  it('streams the carrier as a whole block before the tool_use, with dense indexes', () => {
    const encoder = new AnthropicMessagesStreamEncoder({ id: 'msg_1', model: 'rosetta/gemini-3-pro' });
    const frames = sseFrames(STREAM.map((event) => encoder.encode(event)).join(''));
    const carrierFrames = frames.filter(({ data }) => (data as { index?: number }).index === 1);
    expect(carrierFrames).toEqual([
      { event: 'content_block_start', data: { type: 'content_block_start', index: 1, content_block: { type: 'thinking', thinking: '', signature: '' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 1, delta: { type: 'signature_delta', signature: CARRIER.signature } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 1 } },
    ]);
    const content = accumulateMessage(frames).content;
    expect(content).toEqual(EXPECTED_CONTENT);
    expect(decodeHistory(content)).toEqual(EXPECTED_HISTORY);
  });

  it('keeps one block open at a time when the signed call starts while another is open', () => {
    const content = streamContent([
      { type: 'start', id: 'up', model: 'm', created: 1 },
      { type: 'refusal-delta', index: 0, text: 'Hm.' },
      { type: 'tool-call-start', index: 1, id: 'call_2', name: 'get_time' },
      { type: 'tool-call-start', index: 2, id: 'call_1', name: 'get_weather', signature: GEMINI },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{"city":"Paris"}' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"tz":"CET"}' },
      { type: 'tool-call-end', index: 2 },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', finishReason: { unified: 'tool_calls', raw: 'STOP' } },
    ]);
    expect(content).toEqual([
      { type: 'text', text: 'Hm.' },
      { type: 'tool_use', id: 'call_2', name: 'get_time', input: { tz: 'CET' } },
      CARRIER,
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
  });

  it('adds nothing for unsigned calls or native thinking, and leaves Anthropic signatures alone', () => {
    const native: CanonicalResponse = {
      ...response,
      content: [
        { type: 'thinking', text: '', signature: { protocol: 'anthropic', value: 'EqQBnative' } },
        { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ],
    };
    const wire = convertToAnthropicMessagesResponse({ response: native })['content'] as unknown[];
    expect(wire).toEqual([
      { type: 'thinking', thinking: '', signature: 'EqQBnative' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(decodeHistory(wire)).toEqual({ role: 'assistant', content: native.content });
  });

  it('drops a carrier with no tool_use after it', () => {
    expect(decodeHistory([{ type: 'text', text: 'Done.' }, CARRIER])).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] });
  });

  describe('never reaches an Anthropic upstream', () => {
    const MODEL = 'claude-sonnet-4-5';
    const encode = (request: CanonicalRequest) => convertToAnthropicMessagesRequest({ request, upstreamModel: MODEL, defaultMaxTokens: 1000 });
    const thinking = { thinking: { type: 'enabled', budget_tokens: 2000 } };

    it('is taken out of the fast path, and the client body is left as it was', () => {
      const body = historyBody(EXPECTED_CONTENT, thinking);
      const snapshot = structuredClone(body);
      const { value } = encode(convertAnthropicMessagesRequest({ body }).value);
      expect(value['messages']).toEqual([
        { role: 'user', content: 'Weather and time?' },
        { role: 'assistant', content: EXPECTED_CONTENT.filter((block) => block !== CARRIER) },
        (snapshot['messages'] as unknown[])[2],
      ]);
      expect(body).toEqual(snapshot);
    });

    it('turns thinking off on the fast path too when the last tool turn is left without signed thinking', () => {
      const { value, warnings } = encode(convertAnthropicMessagesRequest({ body: historyBody(EXPECTED_CONTENT, thinking) }).value);
      expect(value['thinking']).toEqual({ type: 'disabled' });
      expect(warnings).toEqual([
        { feature: 'thinking', message: 'The last tool-calling turn has no Anthropic-signed thinking, which Anthropic requires; thinking disabled.' },
      ]);
    });

    it('leaves thinking on for a fast-path tool turn that starts with Anthropic-signed or redacted thinking', () => {
      for (const first of [{ type: 'thinking', thinking: 'plan', signature: 'EqQBnative' }, { type: 'redacted_thinking', data: 'EmwKAhgB' }]) {
        const content = [first, ...EXPECTED_CONTENT.filter((block) => block !== CARRIER)];
        const { value, warnings } = encode(convertAnthropicMessagesRequest({ body: historyBody(content, thinking) }).value);
        expect(value['thinking']).toEqual(thinking.thinking);
        expect((value['messages'] as { content: unknown[] }[])[1]?.content).toEqual(content);
        expect(warnings).toEqual([]);
      }
    });

    it('leaves a fast-path body alone when thinking is off or the last assistant turn calls no tool', () => {
      const off = encode(convertAnthropicMessagesRequest({ body: historyBody(EXPECTED_CONTENT) }).value);
      expect(off.value['thinking']).toBeUndefined();
      const body = historyBody(EXPECTED_CONTENT, thinking);
      (body['messages'] as unknown[]).push({ role: 'assistant', content: [{ type: 'text', text: 'It is 18C.' }] }, { role: 'user', content: 'Thanks' });
      const later = encode(convertAnthropicMessagesRequest({ body }).value);
      expect(later.value['thinking']).toEqual(thinking.thinking);
      expect(later.warnings).toEqual([]);
    });

    it('does not count as signed thinking on the canonical path, so thinking is turned off', () => {
      const { passthrough: _passthrough, ...request } = convertAnthropicMessagesRequest({ body: historyBody(EXPECTED_CONTENT, thinking) }).value;
      const { value, warnings } = encode(request);
      expect((value['messages'] as { content: unknown[] }[])[1]).toEqual({
        role: 'assistant',
        content: EXPECTED_CONTENT.filter((block) => block !== CARRIER),
      });
      expect(value['thinking']).toEqual({ type: 'disabled' });
      expect(warnings).toContainEqual({
        feature: 'thinking',
        message: 'The last tool-calling turn has no Anthropic-signed thinking, which Anthropic requires; thinking disabled.',
      });
    });

    it('is not sent even as a canonical thinking part claiming an Anthropic signature', () => {
      const request: CanonicalRequest = {
        model: 'rosetta/x',
        stream: false,
        routing: {},
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
          { role: 'assistant', content: [{ type: 'thinking', text: '', signature: { protocol: 'anthropic', value: CARRIER.signature } }, { type: 'text', text: 'Hello' }] },
        ],
      };
      expect(encode(request).value['messages']).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
      ]);
    });
  });
});

describe('foreign reasoning on the Anthropic fast path', () => {
  it('removes thinking another provider signed before the body reaches Anthropic', async () => {
    const { convertToAnthropicMessagesRequest } = await import('./convert-to-anthropic-messages-request');
    const { wrapSignature } = await import('@rosetta/protocols/common');
    const native = { type: 'thinking', thinking: 'mine', signature: 'EqQBnative' };
    const foreign = { type: 'thinking', thinking: 'theirs', signature: wrapSignature({ protocol: 'gemini', value: 'CpcB' }, 'anthropic') };
    const body = {
      model: 'rosetta/claude-haiku-4-5',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [foreign, { type: 'text', text: 'a' }] },
        { role: 'user', content: 'again' },
        { role: 'assistant', content: [native, { type: 'text', text: 'b' }] },
        { role: 'user', content: 'more' },
      ],
    };
    const { value } = convertToAnthropicMessagesRequest({
      request: { model: body.model, messages: [], stream: false, routing: {}, passthrough: { protocol: 'anthropic', body } },
      upstreamModel: 'claude-haiku-4-5',
      defaultMaxTokens: 100,
    });
    const messages = value['messages'] as Array<{ content: unknown }>;
    expect(messages[1]!.content).toEqual([{ type: 'text', text: 'a' }]);
    expect(messages[3]!.content).toEqual([native, { type: 'text', text: 'b' }]);
    expect((body.messages[1]!.content as unknown[]).length).toBe(2);
  });
});
