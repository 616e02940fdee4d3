import { convertOpenAIChatRequest } from './convert-openai-chat-request';
import { convertToOpenAIChatResponse } from './convert-to-openai-chat-response';
import { OpenAIChatStreamEncoder } from './openai-chat-stream-encoder';

describe('signed reasoning through dialect A (reasoning_details)', () => {
  const response = {
    id: 'r1',
    model: 'rosetta/claude-haiku-4-5',
    created: 1,
    content: [
      { type: 'thinking' as const, text: 'Need the tool.', signature: { protocol: 'anthropic' as const, value: 'EqQBsig' } },
      { type: 'tool_call' as const, id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
    ],
    finishReason: { unified: 'tool_calls' as const, raw: 'tool_use' },
  };

  it('carries the signature out in the response and back in from history', () => {
    const wire = convertToOpenAIChatResponse({ response }) as any;
    const message = wire.choices[0].message;
    expect(message.reasoning_content).toBe('Need the tool.');
    expect(message.reasoning_details).toEqual([
      { type: 'reasoning.text', text: 'Need the tool.', signature: expect.stringMatching(/^rosetta-sig\.anthropic\./), format: 'rosetta-v1', index: 0 },
    ]);

    const { value } = convertOpenAIChatRequest({
      body: { model: 'rosetta/x', messages: [{ role: 'user', content: 'hi' }, message, { role: 'tool', tool_call_id: 'toolu_1', content: '18C' }] },
    });
    expect(value.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'Need the tool.', signature: { protocol: 'anthropic', value: 'EqQBsig' } },
        { type: 'tool_call', id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ],
    });
  });

  it('streams the signed block whole when it ends', () => {
    const encoder = new OpenAIChatStreamEncoder({ id: 'c', model: 'm', created: 1, includeUsage: false });
    encoder.encode({ type: 'start', id: 'x', model: 'm', created: 1 });
    encoder.encode({ type: 'thinking-start', index: 0 });
    encoder.encode({ type: 'thinking-delta', index: 0, text: 'Need ' });
    encoder.encode({ type: 'thinking-delta', index: 0, text: 'it.' });
    const out = encoder.encode({ type: 'thinking-end', index: 0, signature: { protocol: 'gemini', value: 'CpcB' } });
    const chunk = JSON.parse(out.replace(/^data: /, '').trim());
    expect(chunk.choices[0].delta.reasoning_details).toEqual([
      { type: 'reasoning.text', text: 'Need it.', signature: expect.stringMatching(/^rosetta-sig\.gemini\./), format: 'rosetta-v1', index: 0 },
    ]);
    expect(encoder.encode({ type: 'thinking-end', index: 1 })).toBe('');
  });
});
