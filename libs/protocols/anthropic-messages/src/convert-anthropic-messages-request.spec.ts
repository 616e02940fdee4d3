import { GatewayError, type CanonicalRequest } from '@rosetta/canonical';
import { fixtureJson } from './__fixtures__/load-fixture';
import { convertAnthropicMessagesRequest } from './convert-anthropic-messages-request';

const minimal = (extra: Record<string, unknown> = {}) => ({
  model: 'rosetta/auto',
  max_tokens: 256,
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});

function decode(body: Record<string, unknown>) {
  const { value, warnings } = convertAnthropicMessagesRequest({ body });
  const { passthrough, ...rest } = value;
  return { request: rest, passthrough, warnings };
}

function failure(body: Record<string, unknown>): GatewayError {
  try {
    convertAnthropicMessagesRequest({ body });
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected the conversion to fail');
}

describe('convertAnthropicMessagesRequest', () => {
  it('converts a request using every modelled feature, keeping the original body by reference', () => {
    const body = fixtureJson('dialect-b-request-full.json');
    const { request, passthrough, warnings } = decode(body);
    expect(request).toEqual(fixtureJson<Omit<CanonicalRequest, 'passthrough'>>('dialect-b-request-full.canonical.json'));
    expect(warnings).toEqual([
      { feature: 'messages[1].content[3]', message: "Server tool block 'server_tool_use' only reaches Anthropic upstreams; dropped for others." },
      { feature: 'messages[1].content[4]', message: "Server tool block 'web_search_tool_result' only reaches Anthropic upstreams; dropped for others." },
      { feature: 'tools[3]', message: "Server tool 'web_search' (web_search_20250305) only reaches Anthropic upstreams; dropped for others." },
    ]);
    expect(passthrough).toEqual({ protocol: 'anthropic', body });
    expect(passthrough?.body).toBe(body);
  });

  it('reads a minimal request', () => {
    expect(decode(minimal()).request).toEqual({
      model: 'rosetta/auto',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      maxOutputTokens: 256,
      stream: false,
      routing: {},
    });
  });

  it('reads a string system prompt and the sampling fields', () => {
    const { request } = decode(minimal({ system: 'Be brief.', temperature: 0.2, top_k: 5, top_p: 0.9 }));
    expect(request).toMatchObject({
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      ],
      temperature: 0.2,
      topK: 5,
      topP: 0.9,
    });
  });

  it.each([
    [{ type: 'any' }, { toolChoice: { type: 'required' } }],
    [{ type: 'tool', name: 'f', disable_parallel_tool_use: true }, { toolChoice: { type: 'tool', name: 'f' }, parallelToolCalls: false }],
    [{ type: 'none' }, { toolChoice: { type: 'none' } }],
    [{ type: 'auto', disable_parallel_tool_use: false }, { toolChoice: { type: 'auto' } }],
  ])('maps tool_choice %j', (choice, expected) => {
    const { request } = decode(minimal({ tool_choice: choice }));
    expect({ toolChoice: request.toolChoice, parallelToolCalls: request.parallelToolCalls }).toEqual({ parallelToolCalls: undefined, ...expected });
  });

  it.each([
    [{ thinking: { type: 'adaptive' } }, { enabled: true }],
    [{ thinking: { type: 'adaptive', display: 'omitted' } }, { enabled: true, includeThoughts: false }],
    [{ thinking: { type: 'disabled' } }, { enabled: false }],
    [{ thinking: { type: 'enabled', budget_tokens: 1024 } }, { enabled: true, budgetTokens: 1024 }],
    [{ output_config: { effort: 'low' } }, { enabled: true, effort: 'low' }],
    [{ thinking: { type: 'disabled' }, output_config: { effort: 'max' } }, { enabled: false, effort: 'max' }],
  ])('maps thinking settings %j', (extra, thinking) => {
    expect(decode(minimal(extra)).request.thinking).toEqual(thinking);
  });

  it('puts tool results before the rest of their turn, naming each after the call it answers', () => {
    const { request } = decode(
      minimal({
        messages: [
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'lookup', input: { q: 'x' } }] },
          { role: 'user', content: [{ type: 'text', text: 'ok' }, { type: 'tool_result', tool_use_id: 't1' }, { type: 'tool_result', tool_use_id: 'other', content: '' }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'again' }] },
        ],
      }),
    );
    expect(request.messages).toEqual([
      { role: 'assistant', content: [{ type: 'tool_call', id: 't1', name: 'lookup', arguments: '{"q":"x"}' }] },
      {
        role: 'tool',
        content: [
          { type: 'tool_result', toolCallId: 't1', toolName: 'lookup', content: [] },
          { type: 'tool_result', toolCallId: 'other', content: [{ type: 'text', text: '' }] },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'ok' }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 't1', toolName: 'lookup', content: [{ type: 'text', text: 'again' }] }] },
    ]);
  });

  it('keeps an empty user turn and a system role inside messages where they were', () => {
    const { request } = decode(minimal({ messages: [{ role: 'system', content: 'S' }, { role: 'user', content: [] }, { role: 'assistant', content: '' }] }));
    expect(request.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'S' }] },
      { role: 'user', content: [] },
      { role: 'assistant', content: [] },
    ]);
  });

  it('drops images inside a document content source and search results, with warnings', () => {
    const { request, warnings } = decode(
      minimal({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'document', source: { type: 'content', content: [{ type: 'image', source: { type: 'url', url: 'u' } }, { type: 'text', text: 'T' }] } },
              { type: 'search_result', source: 's', title: 't', content: [] },
              { type: 'tool_result', tool_use_id: 'x', content: [{ type: 'search_result', source: 's', title: 't', content: [] }] },
            ],
          },
        ],
      }),
    );
    expect(request.messages).toEqual([
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'x', content: [] }] },
      { role: 'user', content: [{ type: 'document', source: { kind: 'text', mediaType: 'text/plain', data: 'T' } }] },
    ]);
    expect(warnings.map((warning) => warning.feature)).toEqual([
      'messages[0].content[0].source.content[0]',
      'messages[0].content[1]',
      'messages[0].content[2].content[0]',
    ]);
  });

  it.each([
    [{ messages: [{ role: 'user', content: 'x' }] }, 'model'],
    [minimal({ messages: [] }), 'messages'],
    [minimal({ messages: ['hi'] }), 'messages[0]'],
    [minimal({ messages: [{ role: 'tool', content: 'x' }] }), 'messages[0].role'],
    [minimal({ messages: [{ role: 'user', content: 'a' }, { role: 'user', content: 42 }] }), 'messages[1].content'],
    [minimal({ messages: [{ role: 'user', content: 'a' }, { role: 'user', content: [{ type: 'video' }] }] }), 'messages[1].content[0].type'],
    [minimal({ messages: [{ role: 'user', content: [{ type: 'text' }] }] }), 'messages[0].content[0].text'],
    [minimal({ messages: [{ role: 'user', content: [{ type: 'tool_use', id: 'a', name: 'b', input: {} }] }] }), 'messages[0].content[0].type'],
    [minimal({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'svg' } }] }] }), 'messages[0].content[0].source.type'],
    [minimal({ messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', data: 'x' } }] }] }), 'messages[0].content[0].source.media_type'],
    [minimal({ messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] }), 'messages[0].content[0].tool_use_id'],
    [minimal({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'audio' }] }] }] }), 'messages[0].content[0].content[0].type'],
    [minimal({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: 'yes' }] }] }), 'messages[0].content[0].cache_control'],
    [minimal({ messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'b', input: '{}' }] }] }), 'messages[0].content[0].input'],
    [minimal({ messages: [{ role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 'a' }] }] }), 'messages[0].content[0].type'],
    [minimal({ messages: [{ role: 'assistant', content: [{ type: 'thinking', thinking: 'x', signature: 5 }] }] }), 'messages[0].content[0].signature'],
    [minimal({ system: [{ type: 'image' }] }), 'system[0].type'],
    [minimal({ temperature: 'hot' }), 'temperature'],
    [minimal({ stop_sequences: 'END' }), 'stop_sequences'],
    [minimal({ tools: [{ name: 'f' }] }), 'tools[0].input_schema'],
    [minimal({ tools: [{ input_schema: {} }] }), 'tools[0].name'],
    [minimal({ tool_choice: { type: 'sometimes' } }), 'tool_choice.type'],
    [minimal({ thinking: { type: 'maybe' } }), 'thinking.type'],
    [minimal({ thinking: { type: 'enabled', budget_tokens: 'lots' } }), 'thinking.budget_tokens'],
    [minimal({ output_config: { format: { type: 'xml' } } }), 'output_config.format.type'],
    [minimal({ output_config: { format: { type: 'json_schema' } } }), 'output_config.format.schema'],
    [minimal({ metadata: { user_id: 7 } }), 'metadata.user_id'],
    [minimal({ provider_sort: 'cheapest' }), 'provider_sort'],
  ])('rejects %j naming %s', (body, param) => {
    const error = failure(body);
    expect({ type: error.type, status: error.status, param: error.param }).toEqual({ type: 'invalid_request_error', status: 400, param });
    expect(error.message).toContain(param);
  });
});
