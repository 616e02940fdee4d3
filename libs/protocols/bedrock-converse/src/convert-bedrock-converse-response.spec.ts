import { GatewayError, type CanonicalResponse } from '@rosetta/canonical';
import { fixtureJson, freezeNow } from './__fixtures__/load-fixture';
import { convertBedrockConverseResponse } from './convert-bedrock-converse-response';

beforeEach(() => freezeNow());
afterEach(() => jest.restoreAllMocks());

describe('convertBedrockConverseResponse', () => {
  it.each([
    ['text', 'text, with cache reads and writes added into the input'],
    ['tool-use', 'signed reasoning, text and two parallel tool calls'],
    ['redacted-thinking', 'redacted and signed reasoning, an empty text block, the output cap'],
  ])('converts %s (%s)', (name) => {
    const { id, ...rest } = convertBedrockConverseResponse(fixtureJson(`bedrock-response-${name}.json`));
    expect(id).toMatch(/^msg_bdrk_[0-9a-f]{32}$/);
    expect(rest).toEqual(fixtureJson<Omit<CanonicalResponse, 'id'>>(`bedrock-response-${name}.canonical.json`));
  });

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

  it('makes a new id for every reply', () => {
    const body = fixtureJson('bedrock-response-text.json');
    expect(convertBedrockConverseResponse(body).id).not.toBe(convertBedrockConverseResponse(body).id);
  });

  it('fails a body without an output message as a malformed upstream answer', () => {
    expect(() => convertBedrockConverseResponse({ stopReason: 'end_turn' })).toThrow(GatewayError);
    expect(() => convertBedrockConverseResponse({ output: { message: { role: 'assistant' } } })).toThrow('Upstream service error: response has no output message');
  });
});
