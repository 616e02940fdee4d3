import type { StreamEvent } from '@rosetta/canonical';
import type { ChatInput } from '@rosetta/protocols/common';
import { anthropicMessagesDialect } from './anthropic-messages.dialect';

function input(body: unknown, headers: ChatInput['headers'] = {}): ChatInput {
  return { body, query: {}, headers, requestId: 'req_abc', defaultModel: 'rosetta/auto' };
}

const BODY = { model: 'rosetta/claude-haiku-4-5', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Hello there' }] };

describe('anthropicMessagesDialect', () => {
  // Issue 27: message_start never shows an estimate that the final count would contradict.
  const opening = (start: StreamEvent): unknown => {
    const framing = anthropicMessagesDialect.decodeChat(input(structuredClone(BODY))).streamFraming('rosetta/claude-haiku-4-5', 1234);
    return JSON.parse(/^event: message_start\ndata: (.*)$/m.exec(framing.encode(start))![1]!).message.usage;
  };

  it("message_start carries the upstream's own prompt count when the upstream gave one as it started", () => {
    const usage = { inputTokens: 2182, outputTokens: 0, cachedInputTokens: 2048, cacheCreationInputTokens: 120 };
    expect(opening({ type: 'start', id: 'up_1', model: 'claude-haiku-4-5', created: 0, usage })).toEqual({ input_tokens: 14, output_tokens: 0, cache_creation_input_tokens: 120, cache_read_input_tokens: 2048 });
  });

  it('message_start says 0, not the gateway estimate, when the upstream counts only at the end (OpenAI, Responses)', () => {
    expect(opening({ type: 'start', id: 'up_1', model: 'gpt-4o-mini', created: 0 })).toEqual({ input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  it("forwards the client's anthropic-version and anthropic-beta, and answers with a request-id header", () => {
    const exchange = anthropicMessagesDialect.decodeChat(input(structuredClone(BODY), { 'anthropic-beta': 'interleaved-thinking-2025-05-14' }));
    expect(exchange.request.passthrough?.headers).toEqual({ 'anthropic-version': '2023-06-01', 'anthropic-beta': 'interleaved-thinking-2025-05-14' });
    expect(exchange.headers).toEqual({ 'request-id': 'req_abc' });
  });

  it('counts tokens from a body without max_tokens, and still names a bad field', () => {
    const { max_tokens: _omitted, ...body } = BODY;
    const counted = anthropicMessagesDialect.decodeCountTokens!(input(body));
    expect(counted.encode(9)).toEqual({ input_tokens: 9 });
    expect(() => anthropicMessagesDialect.decodeCountTokens!(input({ ...body, messages: [] }))).toThrow(
      expect.objectContaining({ status: 400, param: 'messages', message: "Invalid 'messages': must contain at least 1 item" }),
    );
  });
});
