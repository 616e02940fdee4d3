import type { ChatInput } from '@rosetta/protocols/common';
import { anthropicMessagesDialect } from './anthropic-messages.dialect';

function input(body: unknown, headers: ChatInput['headers'] = {}): ChatInput {
  return { body, query: {}, headers, requestId: 'req_abc', defaultModel: 'rosetta/auto' };
}

const BODY = { model: 'rosetta/claude-haiku-4-5', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Hello there' }] };

describe('anthropicMessagesDialect', () => {
  it("announces the gateway's prompt estimate in message_start: the one limits and routing used, not a second count", () => {
    const exchange = anthropicMessagesDialect.decodeChat(input(structuredClone(BODY)));
    const framing = exchange.streamFraming('rosetta/claude-haiku-4-5', 1234);
    const opened = framing.encode({ type: 'start', id: 'up_1', model: 'claude-haiku-4-5', created: 0 });
    const start = JSON.parse(/^event: message_start\ndata: (.*)$/m.exec(opened)![1]!);
    expect(start).toEqual({
      type: 'message_start',
      message: expect.objectContaining({ id: 'msg_abc', model: 'rosetta/claude-haiku-4-5', usage: { input_tokens: 1234, output_tokens: 0 } }),
    });
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
