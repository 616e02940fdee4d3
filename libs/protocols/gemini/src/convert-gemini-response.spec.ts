import { GatewayError, type CanonicalResponse } from '@rosetta/canonical';
import { fixtureJson } from './__fixtures__/load-fixture';
import { convertGeminiResponse } from './convert-gemini-response';
import { convertToGeminiResponse } from './convert-to-gemini-response';

const CASES = ['text', 'tool-calls', 'thinking', 'max-tokens', 'safety', 'blocked-prompt'];

/** Only the text fixture carries Vertex's createTime; the others are stamped on arrival. */
function expectedCanonical(name: string): CanonicalResponse {
  const expected = fixtureJson<CanonicalResponse>(`gemini-response-${name}.canonical.json`);
  if (name === 'text') return expected;
  const content = expected.content.map((part) =>
    part.type === 'tool_call' && part.id.startsWith('call_0123') ? { ...part, id: expect.stringMatching(/^call_[0-9a-f]{32}$/) } : part,
  );
  return { ...expected, content, created: expect.any(Number) };
}

describe('convertGeminiResponse (upstream → canonical)', () => {
  it.each(CASES)('decodes gemini-response-%s', (name) => {
    expect(convertGeminiResponse({ body: fixtureJson(`gemini-response-${name}.json`) })).toEqual(expectedCanonical(name));
  });

  it('keeps a signature that arrives on an empty text part, and makes up an id when none came', () => {
    const body = {
      candidates: [{ content: { parts: [{ text: 'Hi' }, { text: '', thoughtSignature: 'sig' }, { text: '' }] } }],
    };
    expect(convertGeminiResponse({ body })).toEqual({
      id: expect.stringMatching(/^gemini-[0-9a-f]{32}$/),
      model: '',
      created: expect.any(Number),
      content: [
        { type: 'text', text: 'Hi' },
        { type: 'text', text: '', signature: { protocol: 'gemini', value: 'sig' } },
      ],
      finishReason: { unified: 'stop' },
    });
  });

  it.each([[{ candidates: [] }], [{ error: { message: 'x' } }], ['not an object']])('fails with an upstream error on %j', (body) => {
    let caught: unknown;
    try {
      convertGeminiResponse({ body });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GatewayError);
    expect(caught).toMatchObject({ type: 'upstream_error', status: 502, message: 'Upstream service error: response has no candidates' });
  });
});

describe('convertToGeminiResponse (canonical → dialect C)', () => {
  it.each(CASES)('encodes gemini-response-%s.canonical as a Gemini client expects', (name) => {
    const response = fixtureJson<CanonicalResponse>(`gemini-response-${name}.canonical.json`);
    expect(convertToGeminiResponse({ response })).toEqual(fixtureJson(`dialect-c-response-${name}.json`));
  });

  it('wraps foreign signatures, maps reasons Gemini lacks, drops redacted thinking and omits unknown usage', () => {
    const response: CanonicalResponse = {
      id: 'msg_1',
      model: 'rosetta/claude-haiku-4-5',
      created: 9,
      content: [
        { type: 'thinking', text: 'Hmm.', signature: { protocol: 'anthropic', value: 'EqQB' } },
        { type: 'redacted_thinking', data: 'enc', protocol: 'anthropic' },
        { type: 'refusal', text: 'No.' },
        { type: 'tool_call', id: 'toolu_1', name: 'f', arguments: '{"a":' },
      ],
      finishReason: { unified: 'refusal', raw: 'refusal' },
    };
    expect(convertToGeminiResponse({ response })).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'Hmm.', thought: true, thoughtSignature: `rosetta-sig.anthropic.${Buffer.from('EqQB').toString('base64url')}` },
              { text: 'No.' },
              { functionCall: { id: 'toolu_1', name: 'f', args: {} } },
            ],
          },
          finishReason: 'SAFETY',
          index: 0,
        },
      ],
      modelVersion: 'rosetta/claude-haiku-4-5',
      responseId: 'msg_1',
    });
  });
});
