import { GatewayError, type CanonicalResponse } from '@rosetta/canonical';
import { fixtureJson } from './__fixtures__/load-fixture';
import { convertOpenAIChatResponse } from './convert-openai-chat-response';
import { convertToOpenAIChatResponse } from './convert-to-openai-chat-response';

const CASES = ['text', 'parallel-tool-calls', 'reasoning', 'refusal', 'length'];

describe('convertOpenAIChatResponse (upstream → canonical)', () => {
  it.each(CASES)('decodes openai-response-%s', (name) => {
    expect(convertOpenAIChatResponse({ body: fixtureJson(`openai-response-${name}.json`) })).toEqual(
      fixtureJson<CanonicalResponse>(`openai-response-${name}.canonical.json`),
    );
  });

  it('reads OpenRouter-style `reasoning`, treats tool calls under `stop` as tool_calls, and names unnamed calls', () => {
    const body = {
      id: 'gen-1',
      model: 'qwen3',
      created: 5,
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: { role: 'assistant', content: '', reasoning: 'Think.', tool_calls: [{ type: 'function', function: { name: 'f', arguments: '{}' } }] },
        },
      ],
    };
    expect(convertOpenAIChatResponse({ body })).toEqual({
      id: 'gen-1',
      model: 'qwen3',
      created: 5,
      content: [
        { type: 'thinking', text: 'Think.' },
        { type: 'tool_call', id: expect.stringMatching(/^call_[0-9a-f]{32}$/), name: 'f', arguments: '{}' },
      ],
      finishReason: { unified: 'tool_calls', raw: 'stop' },
    });
  });

  it.each([[{ choices: [] }], [{ error: { message: 'x' } }], ['not an object']])('fails with an upstream error on %j', (body) => {
    let caught: unknown;
    try {
      convertOpenAIChatResponse({ body });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GatewayError);
    expect(caught).toMatchObject({ type: 'upstream_error', status: 502, message: 'Upstream service error: response has no choices' });
  });
});

describe('convertToOpenAIChatResponse (canonical → dialect A)', () => {
  it.each(CASES)('encodes openai-response-%s.canonical as the client expects', (name) => {
    const response = fixtureJson<CanonicalResponse>(`openai-response-${name}.canonical.json`);
    expect(convertToOpenAIChatResponse({ response })).toEqual(fixtureJson(`dialect-a-response-${name}.json`));
  });

  it('maps reasons OpenAI lacks, joins text, carries redacted thinking in reasoning_details and omits unknown usage', () => {
    const response: CanonicalResponse = {
      id: 'msg_1',
      model: 'rosetta/claude-haiku-4-5',
      created: 9,
      content: [
        { type: 'redacted_thinking', data: 'enc', protocol: 'anthropic' },
        { type: 'text', text: 'Hello' },
        { type: 'text', text: ' world' },
      ],
      finishReason: { unified: 'stop_sequence', raw: 'stop_sequence', stopSequence: '###' },
    };
    expect(convertToOpenAIChatResponse({ response })).toEqual({
      id: 'msg_1',
      object: 'chat.completion',
      created: 9,
      model: 'rosetta/claude-haiku-4-5',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Hello world',
            refusal: null,
            annotations: [],
            reasoning_details: [{ type: 'reasoning.encrypted', data: `rosetta-sig.anthropic.${Buffer.from('enc').toString('base64url')}`, format: 'rosetta-v1', index: 0 }],
          },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
    });
  });

  it('sends empty content rather than null when nothing was produced', () => {
    const response: CanonicalResponse = { id: 'x', model: 'm', created: 1, content: [], finishReason: { unified: 'length' } };
    const body = convertToOpenAIChatResponse({ response }) as { choices: { message: { content: unknown } }[] };
    expect(body.choices[0]?.message.content).toBe('');
  });
});
