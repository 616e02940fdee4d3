import { GatewayError, type CanonicalResponse } from '@rosetta/canonical';
import { fixtureJson, freezeNow } from './__fixtures__/load-fixture';
import { convertAnthropicMessagesRequest } from './convert-anthropic-messages-request';
import { convertAnthropicMessagesResponse } from './convert-anthropic-messages-response';
import { convertToAnthropicMessagesRequest } from './convert-to-anthropic-messages-request';
import { convertToAnthropicMessagesResponse } from './convert-to-anthropic-messages-response';

const CASES = ['text', 'tool-use', 'parallel-tool-use', 'redacted-thinking', 'stop-sequence', 'max-tokens', 'refusal'];

beforeEach(() => freezeNow());

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

afterEach(() => jest.restoreAllMocks());

describe('convertAnthropicMessagesResponse (upstream → canonical)', () => {
  it.each(CASES)('decodes anthropic-response-%s', (name) => {
    expect(convertAnthropicMessagesResponse({ body: fixtureJson(`anthropic-response-${name}.json`) })).toEqual(
      fixtureJson<CanonicalResponse>(`anthropic-response-${name}.canonical.json`),
    );
  });

  it('leaves out server-tool blocks, keeps an unsigned thinking block unsigned, and reads a missing reason as other', () => {
    const body = {
      id: 'msg_1',
      model: 'm',
      content: [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
        { type: 'thinking', thinking: 'hm', signature: '' },
        { type: 'tool_use', id: 'toolu_1', name: 'f' },
      ],
      stop_reason: null,
      usage: { output_tokens: 3 },
    };
    expect(convertAnthropicMessagesResponse({ body })).toEqual({
      id: 'msg_1',
      model: 'm',
      created: 1730000000,
      content: [
        { type: 'thinking', text: 'hm' },
        { type: 'tool_call', id: 'toolu_1', name: 'f', arguments: '{}' },
      ],
      finishReason: { unified: 'other' },
    });
  });

  it.each([[{ type: 'error', error: { type: 'api_error', message: 'x' } }], ['text'], [null]])('fails with an upstream error on %j', (body) => {
    const error = thrown(() => convertAnthropicMessagesResponse({ body }));
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ type: 'upstream_error', status: 502, message: 'Upstream service error: response has no content' });
  });
});

describe('convertToAnthropicMessagesResponse (canonical → dialect B)', () => {
  it.each(CASES)('encodes anthropic-response-%s.canonical as the client expects', (name) => {
    const response = fixtureJson<CanonicalResponse>(`anthropic-response-${name}.canonical.json`);
    expect(convertToAnthropicMessagesResponse({ response })).toEqual(fixtureJson(`dialect-b-response-${name}.json`));
  });

  it('answers a turn from another upstream: msg_ id, refusal as text, wrapped signatures, tool_use stop, arguments as objects', () => {
    const response: CanonicalResponse = {
      id: 'chatcmpl-77',
      model: 'rosetta/gpt-4o',
      created: 1,
      content: [
        { type: 'thinking', text: 'unsigned' },
        { type: 'thinking', text: 'gemini', signature: { protocol: 'gemini', value: 'CpcB/+x==' } },
        { type: 'redacted_thinking', data: 'not ours', protocol: 'gemini' },
        { type: 'refusal', text: 'I will not do part of that.' },
        { type: 'text', text: '' },
        { type: 'tool_call', id: 'call_1', name: 'f', arguments: '' },
        { type: 'tool_call', id: 'call_2', name: 'g', arguments: '{"deep":{"list":[1,2]}}' },
      ],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: 100, outputTokens: 20, cachedInputTokens: 60, reasoningTokens: 5 },
    };
    expect(convertToAnthropicMessagesResponse({ response })).toEqual({
      id: 'msg_chatcmpl-77',
      type: 'message',
      role: 'assistant',
      model: 'rosetta/gpt-4o',
      content: [
        { type: 'thinking', thinking: 'unsigned', signature: '' },
        { type: 'thinking', thinking: 'gemini', signature: 'rosetta-sig.gemini.Q3BjQi8reD09' },
        { type: 'text', text: 'I will not do part of that.' },
        { type: 'tool_use', id: 'call_1', name: 'f', input: {} },
        { type: 'tool_use', id: 'call_2', name: 'g', input: { deep: { list: [1, 2] } } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 40, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 60 },
    });
  });

  it('fails as an upstream fault rather than sending {} for arguments that are not a JSON object', () => {
    const response: CanonicalResponse = {
      id: 'x',
      model: 'm',
      created: 1,
      content: [{ type: 'tool_call', id: 'call_1', name: 'f', arguments: '{"city": "Par' }],
      finishReason: { unified: 'tool_calls' },
    };
    const error = thrown(() => convertToAnthropicMessagesResponse({ response }));
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({
      type: 'upstream_error',
      status: 502,
      message: "Upstream service error: the arguments of tool call 'call_1' are not a JSON object",
    });
  });

  it('reports zero usage when none is known', () => {
    const response: CanonicalResponse = { id: 'msg_x', model: 'm', created: 1, content: [], finishReason: { unified: 'length' } };
    expect(convertToAnthropicMessagesResponse({ response })).toMatchObject({
      id: 'msg_x',
      content: [],
      stop_reason: 'max_tokens',
      usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });
});

describe('thinking signatures through a dialect-B client', () => {
  /** The client sends the shown turn back, then the gateway calls an Anthropic upstream with it. */
  function sendBack(shown: Record<string, unknown>) {
    const body = { model: 'rosetta/x', max_tokens: 4096, messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: shown['content'] }, { role: 'user', content: 'More' }] };
    const { passthrough: _passthrough, ...request } = convertAnthropicMessagesRequest({ body }).value;
    const upstream = convertToAnthropicMessagesRequest({ request, upstreamModel: 'claude', defaultMaxTokens: 1024 }).value;
    return { canonical: request.messages[1], upstream: (upstream['messages'] as { content: unknown }[])[1]?.content };
  }

  it('returns an Anthropic signature byte for byte', () => {
    const upstream = fixtureJson('anthropic-response-tool-use.json');
    const shown = convertToAnthropicMessagesResponse({ response: convertAnthropicMessagesResponse({ body: upstream }) });
    const { upstream: sent } = sendBack(shown);
    const [thinking] = (upstream as { content: unknown[] }).content;
    expect(sent).toEqual([thinking, { type: 'text', text: 'Checking the forecast.' }, { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { city: 'Paris', unit: 'celsius' } }]);
  });

  it('brings a foreign signature back to its origin and never sends it, or unsigned thinking, to Anthropic', () => {
    const response: CanonicalResponse = {
      id: 'r',
      model: 'm',
      created: 1,
      content: [
        { type: 'thinking', text: 'g', signature: { protocol: 'gemini', value: 'CpcB/+x==' } },
        { type: 'thinking', text: 'o' },
        { type: 'text', text: 'Answer.' },
      ],
      finishReason: { unified: 'stop' },
    };
    const { canonical, upstream } = sendBack(convertToAnthropicMessagesResponse({ response }));
    expect(canonical).toEqual({ role: 'assistant', content: response.content });
    expect(upstream).toEqual([{ type: 'text', text: 'Answer.' }]);
  });
});
