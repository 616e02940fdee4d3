import { GatewayError } from '@rosetta/canonical';
import { fixtureJson } from './__fixtures__/load-fixture';
import { convertOpenAIResponsesResponse } from './convert-openai-responses-response';

describe('convertOpenAIResponsesResponse', () => {
  it('reads reasoning, text, a refusal, function and custom calls, and skips hosted-tool items', () => {
    expect(convertOpenAIResponsesResponse({ body: fixtureJson('responses-response-full.json') })).toEqual({
      id: 'resp_68a1',
      model: 'gpt-5-codex',
      created: 1764000000,
      content: [
        { type: 'thinking', text: 'Check the weather.', signature: { protocol: 'openai-responses', value: '{"id":"rs_9","encrypted_content":"gAAAAABenc"}' } },
        { type: 'text', text: 'Let me look.' },
        { type: 'refusal', text: 'Not that part.' },
        { type: 'tool_call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'tool_call', id: 'call_p', name: 'codex__apply_patch', arguments: '{"input":"*** Begin Patch"}' },
      ],
      finishReason: { unified: 'tool_calls', raw: 'completed' },
      usage: { inputTokens: 120, outputTokens: 40, cachedInputTokens: 100, reasoningTokens: 16 },
    });
  });

  it('reads an incomplete response as the output cap', () => {
    const response = convertOpenAIResponsesResponse({ body: fixtureJson('responses-response-incomplete.json') });
    expect(response.finishReason).toEqual({ unified: 'length', raw: 'max_output_tokens' });
    expect(response.content).toEqual([{ type: 'text', text: 'Once upon' }]);
  });

  it('refuses a body without output, and reports a failed response as a retryable upstream error', () => {
    expect(() => convertOpenAIResponsesResponse({ body: { id: 'x' } })).toThrow(new GatewayError('upstream_error', 'Upstream service error: response has no output'));
    let thrown: unknown;
    try {
      convertOpenAIResponsesResponse({ body: { output: [], status: 'failed', error: { code: 'server_error', message: 'boom' } } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toEqual(expect.objectContaining({ type: 'upstream_error', message: 'Upstream service error: boom', status: 502, retryable: true }));
  });
});
