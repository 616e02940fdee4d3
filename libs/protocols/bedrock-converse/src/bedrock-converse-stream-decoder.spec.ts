import type { AwsEventStreamMessage } from '@rosetta/protocols/common';
import { BedrockConverseStreamDecoder } from './bedrock-converse-stream-decoder';
import { convertBedrockConverseResponse } from './convert-bedrock-converse-response';

const event = (eventType: string, payload: Record<string, unknown>): AwsEventStreamMessage => ({ messageType: 'event', eventType, payload: { ...payload, p: 'pad' } });

function decode(messages: AwsEventStreamMessage[]) {
  const decoder = new BedrockConverseStreamDecoder();
  return [...messages.flatMap((m) => decoder.push(m)), ...decoder.end()].map((e) => (e.type === 'start' ? { type: 'start' } : e));
}

describe('BedrockConverseStreamDecoder', () => {
  it('reasoning with its signature, text, a tool call in pieces; finish after metadata with the usage (cache reads counted in the input)', () => {
    expect(
      decode([
        event('messageStart', { role: 'assistant' }),
        event('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Thinking' } } }),
        event('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig-1' } } }),
        event('contentBlockStop', { contentBlockIndex: 0 }),
        event('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Hello' } }),
        event('contentBlockStop', { contentBlockIndex: 1 }),
        event('contentBlockStart', { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'tooluse_1', name: 'lookup' } } }),
        event('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '{"q":' } } }),
        event('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '"x"}' } } }),
        event('contentBlockStop', { contentBlockIndex: 2 }),
        event('messageStop', { stopReason: 'tool_use' }),
        event('metadata', { usage: { inputTokens: 10, outputTokens: 5, totalTokens: 115, cacheReadInputTokens: 100, cacheWriteInputTokens: 0 }, metrics: { latencyMs: 42 } }),
      ]),
    ).toEqual([
      { type: 'start' },
      { type: 'thinking-start', index: 0 },
      { type: 'thinking-delta', index: 0, text: 'Thinking' },
      { type: 'thinking-end', index: 0, signature: { protocol: 'bedrock-converse', value: 'sig-1' } },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, text: 'Hello' },
      { type: 'text-end', index: 1 },
      { type: 'tool-call-start', index: 2, id: 'tooluse_1', name: 'lookup' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{"q":' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '"x"}' },
      { type: 'tool-call-end', index: 2 },
      { type: 'finish', finishReason: { unified: 'tool_calls', raw: 'tool_use' }, usage: { inputTokens: 110, outputTokens: 5, cachedInputTokens: 100 } },
    ]);
  });

  it('an exception mid-stream is an error with its status, never a finish; a stream that stops before messageStop is cut', () => {
    const thrown = decode([event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }), { messageType: 'exception', exceptionType: 'throttlingException', payload: { message: 'Too many tokens' } }]);
    expect(thrown.at(-1)).toEqual({ type: 'error', error: expect.objectContaining({ status: 429, message: 'Upstream service error: throttlingException: Too many tokens' }) });
    expect(thrown.some((e) => e.type === 'finish')).toBe(false);
    const cut = decode([event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } })]);
    expect(cut.at(-1)).toEqual({ type: 'error', error: expect.objectContaining({ message: 'Upstream service error: the stream ended before messageStop' }) });
  });

  it('a stream without metadata still finishes, at its end', () => {
    expect(decode([event('messageStart', {}), event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'x' } }), event('messageStop', { stopReason: 'max_tokens' })]).at(-1)).toEqual({
      type: 'finish',
      finishReason: { unified: 'length', raw: 'max_tokens' },
    });
  });
});

describe('convertBedrockConverseResponse', () => {
  it('reasoning keeps its signature bound to Bedrock, redacted reasoning its bytes, tool input its JSON', () => {
    const response = convertBedrockConverseResponse({
      output: { message: { role: 'assistant', content: [
        { reasoningContent: { reasoningText: { text: 'Think', signature: 'sig' } } },
        { reasoningContent: { redactedContent: 'AAEC' } },
        { text: 'Answer' },
        { toolUse: { toolUseId: 'tooluse_9', name: 'lookup', input: { q: 'x' } } },
      ] } },
      stopReason: 'guardrail_intervened',
      usage: { inputTokens: 3, outputTokens: 4, totalTokens: 17, cacheReadInputTokens: 0, cacheWriteInputTokens: 10 },
    });
    expect(response.content).toEqual([
      { type: 'thinking', text: 'Think', signature: { protocol: 'bedrock-converse', value: 'sig' } },
      { type: 'redacted_thinking', data: 'AAEC', protocol: 'bedrock-converse' },
      { type: 'text', text: 'Answer' },
      { type: 'tool_call', id: 'tooluse_9', name: 'lookup', arguments: '{"q":"x"}' },
    ]);
    expect([response.finishReason, response.usage]).toEqual([{ unified: 'content_filter', raw: 'guardrail_intervened' }, { inputTokens: 13, outputTokens: 4, cacheCreationInputTokens: 10 }]);
    expect(response.id).toMatch(/^msg_bdrk_[0-9a-f]{32}$/);
  });
});
