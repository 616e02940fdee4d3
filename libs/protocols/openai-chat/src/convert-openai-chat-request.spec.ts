import { GatewayError, type CanonicalRequest } from '@rosetta/canonical';
import { fixtureJson } from './__fixtures__/load-fixture';
import { convertOpenAIChatRequest } from './convert-openai-chat-request';

const minimal = (extra: Record<string, unknown> = {}) => ({
  model: 'rosetta/auto',
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});

function decode(body: Record<string, unknown>) {
  const { value, warnings } = convertOpenAIChatRequest({ body });
  const { passthrough, ...rest } = value;
  return { request: rest, passthrough, warnings };
}

function failure(body: Record<string, unknown>): GatewayError {
  try {
    convertOpenAIChatRequest({ body });
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected the conversion to fail');
}

describe('convertOpenAIChatRequest', () => {
  it('converts a request using every modelled feature, keeping the original body by reference', () => {
    const body = fixtureJson('dialect-a-request-full.json');
    const { request, passthrough, warnings } = decode(body);
    expect(request).toEqual(fixtureJson<Omit<CanonicalRequest, 'passthrough'>>('dialect-a-request-full.canonical.json'));
    expect(warnings).toEqual([]);
    expect(passthrough).toEqual({ protocol: 'openai', body });
    expect(passthrough?.body).toBe(body);
  });

  it('reads a minimal request', () => {
    expect(decode(minimal()).request).toEqual({
      model: 'rosetta/auto',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      stream: false,
      routing: {},
    });
  });

  it('falls back to max_tokens, user, a stop string and reasoning_effort none', () => {
    const { request } = decode(minimal({ max_tokens: 64, user: 'u', stop: 'END', reasoning_effort: 'none', n: null, seed: null }));
    expect(request).toEqual({
      model: 'rosetta/auto',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      maxOutputTokens: 64,
      stopSequences: ['END'],
      thinking: { enabled: false, effort: 'none' },
      user: 'u',
      stream: false,
      routing: {},
    });
  });

  it('prefers safety_identifier to user, and maps simple tool_choice and response_format values', () => {
    const { request } = decode(
      minimal({ user: 'old', safety_identifier: 'new', tool_choice: 'none', response_format: { type: 'json_object' }, stop: ['a', 'b'] }),
    );
    expect(request).toMatchObject({ user: 'new', toolChoice: { type: 'none' }, responseFormat: { type: 'json_object' }, stopSequences: ['a', 'b'] });
  });

  it('takes raw base64 file data as a PDF, and caches where a part asks for a breakpoint', () => {
    const { request } = decode({
      model: 'rosetta/auto',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Long context', prompt_cache_breakpoint: { mode: 'explicit' } },
            { type: 'file', file: { file_data: 'JVBERi0=', filename: 'a.pdf' } },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Long context', cache: { type: 'ephemeral' } },
          { type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, filename: 'a.pdf' },
        ],
      },
    ]);
  });

  it('keeps assistant refusals and text parts, and leaves toolName unset for an unknown call id', () => {
    const { request } = decode({
      model: 'rosetta/auto',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'text', text: 'A' }, { type: 'refusal', refusal: 'B' }], refusal: 'C', reasoning: 'R' },
        { role: 'tool', tool_call_id: 'call_x', content: 'orphan' },
        { role: 'user', content: 'next' },
        { role: 'tool', tool_call_id: 'call_y', content: 'second' },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'R' },
          { type: 'text', text: 'A' },
          { type: 'refusal', text: 'B' },
          { type: 'refusal', text: 'C' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_x', content: [{ type: 'text', text: 'orphan' }] }] },
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_y', content: [{ type: 'text', text: 'second' }] }] },
    ]);
  });

  it('warns about allowed_tools and custom tools instead of refusing them', () => {
    const tool = { type: 'function', function: { name: 'f' } };
    const allowed = convertOpenAIChatRequest({
      body: minimal({
        tools: [tool, { type: 'custom', custom: { name: 'grammar' } }],
        tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [tool] } },
      }),
    });
    expect(allowed.value.tools).toEqual([{ name: 'f' }]);
    expect(allowed.value.toolChoice).toEqual({ type: 'required' });
    expect(allowed.warnings).toEqual([
      { feature: 'tools', message: "Custom tool at 'tools[1]' has no equivalent upstream and was dropped." },
      { feature: 'tool_choice', message: "'allowed_tools' cannot restrict the tool set upstream; using 'required' over all tools." },
    ]);
  });

  it('reads OpenRouter sort objects and lets flattened max prices override nested ones', () => {
    const { request } = decode(
      minimal({ provider: { sort: { by: 'latency' }, max_price: { prompt: 1, completion: 3 } }, provider_max_prompt_price: 0.5 }),
    );
    expect(request.routing).toEqual({ sort: 'latency', maxPrice: { prompt: 0.5, completion: 3 } });
  });

  it.each([
    [{ messages: [{ role: 'user', content: 'x' }] }, 'model'],
    [minimal({ messages: [] }), 'messages'],
    [minimal({ messages: ['hi'] }), 'messages[0]'],
    [minimal({ messages: [{ role: 'robot', content: 'x' }] }), 'messages[0].role'],
    [minimal({ messages: [{ role: 'function', name: 'f', content: 'x' }] }), 'messages[0].role'],
    [minimal({ messages: [{ role: 'user', content: 'a' }, { role: 'user', content: 42 }] }), 'messages[1].content'],
    [minimal({ messages: [{ role: 'user', content: 'a' }, { role: 'user', content: ['a'] }] }), 'messages[1].content[0]'],
    [minimal({ messages: [{ role: 'user', content: 'a' }, { role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'video' }] }] }), 'messages[1].content[1].type'],
    [minimal({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] }), 'messages[0].content[0].image_url.url'],
    [minimal({ messages: [{ role: 'user', content: [{ type: 'file', file: { filename: 'a.pdf' } }] }] }), 'messages[0].content[0].file'],
    [minimal({ messages: [{ role: 'system', content: [{ type: 'image_url' }] }] }), 'messages[0].content[0].type'],
    [minimal({ messages: [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }] }] }), 'messages[0].tool_calls[0].function.arguments'],
    [minimal({ messages: [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'custom', custom: { name: 'g', input: '' } }] }] }), 'messages[0].tool_calls[0].type'],
    [minimal({ messages: [{ role: 'tool', content: 'x' }] }), 'messages[0].tool_call_id'],
    [minimal({ temperature: 'hot' }), 'temperature'],
    [minimal({ stop: [1] }), 'stop'],
    [minimal({ tools: [{ type: 'function', function: { description: 'no name' } }] }), 'tools[0].function.name'],
    [minimal({ tools: [{ type: 'web_search' }] }), 'tools[0].type'],
    [minimal({ tool_choice: 'sometimes' }), 'tool_choice'],
    [minimal({ response_format: { type: 'xml' } }), 'response_format.type'],
    [minimal({ response_format: { type: 'json_schema' } }), 'response_format.json_schema'],
    [minimal({ provider_sort: 'cheapest' }), 'provider_sort'],
    [minimal({ provider: { only: 'openai' } }), 'provider.only'],
    [minimal({ provider_configs: { acme: { endpoint_overrides: { m: { timeout: '30s' } } } } }), 'provider_configs.acme.endpoint_overrides.m.timeout'],
  ])('rejects %j naming %s', (body, param) => {
    const error = failure(body);
    expect({ type: error.type, status: error.status, param: error.param }).toEqual({
      type: 'invalid_request_error',
      status: 400,
      param,
    });
    expect(error.message).toContain(param);
  });
});
