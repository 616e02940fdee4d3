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

  it('makes a new id for every reply', () => {
    const body = fixtureJson('bedrock-response-text.json');
    expect(convertBedrockConverseResponse(body).id).not.toBe(convertBedrockConverseResponse(body).id);
  });

  it('fails a body without an output message as a malformed upstream answer', () => {
    expect(() => convertBedrockConverseResponse({ stopReason: 'end_turn' })).toThrow(GatewayError);
    expect(() => convertBedrockConverseResponse({ output: { message: { role: 'assistant' } } })).toThrow('Upstream service error: response has no output message');
  });
});
