import { GatewayError, type CanonicalRequest } from '@rosetta/canonical';
import { fixtureJson } from './__fixtures__/load-fixture';
import { convertGeminiRequest } from './convert-gemini-request';
import { convertToGeminiRequest, geminiPath, requiresCallSignatures, SKIP_SIGNATURE } from './convert-to-gemini-request';
import { normalizeGeminiRequest } from './normalize-gemini-request';

const MODEL = 'rosetta/gemini-2.5-flash';
const base: CanonicalRequest = { model: MODEL, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false, routing: {} };
const HI = { role: 'user', parts: [{ text: 'Hi' }] };

function encode(request: CanonicalRequest) {
  return convertToGeminiRequest({ request, upstreamModel: 'gemini-2.5-flash' });
}

function decodeClient(body: Record<string, unknown>): CanonicalRequest {
  return convertGeminiRequest({ body: normalizeGeminiRequest(body), model: MODEL, stream: true }).value;
}

describe('geminiPath', () => {
  it('puts the model and the operation in the URL path, asking for SSE when streaming', () => {
    expect(geminiPath('gemini-2.5-flash', false)).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(geminiPath('models/gemini-2.5-pro', true)).toBe('/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse');
  });
});

describe('convertToGeminiRequest', () => {
  describe('fast path (the client spoke dialect C)', () => {
    it('forwards the normalised body, fields Rosetta does not model included, without routing fields', () => {
      const body = fixtureJson('dialect-c-request-snake.json');
      const snapshot = structuredClone(body);
      const { value, warnings } = encode(decodeClient(body));
      expect(value).toEqual(fixtureJson('gemini-upstream-request-fast-path.json'));
      expect(value).toMatchObject({ safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT' }], tools: [{}, { googleSearch: {} }] });
      expect(warnings).toEqual([]);
      expect(body).toEqual(snapshot);
    });

    it('never hands Gemini a signature another provider issued, and unwraps its own', () => {
      const ownWrapped = `rosetta-sig.gemini.${Buffer.from('gemini-sig').toString('base64url')}`;
      const foreign = `rosetta-sig.anthropic.${Buffer.from('EqQBclaude').toString('base64url')}`;
      const body = {
        model: 'ignored',
        contents: [
          HI,
          {
            role: 'model',
            parts: [
              { text: 'Claude thought.', thought: true, thoughtSignature: foreign },
              { functionCall: { name: 'f', args: {} }, thoughtSignature: ownWrapped },
              { text: 'Native.', thoughtSignature: 'native-sig' },
            ],
          },
        ],
      };
      expect(encode(decodeClient(body)).value).toEqual({
        contents: [
          HI,
          {
            role: 'model',
            parts: [
              { text: 'Claude thought.', thought: true },
              { functionCall: { name: 'f', args: {} }, thoughtSignature: 'gemini-sig' },
              { text: 'Native.', thoughtSignature: 'native-sig' },
            ],
          },
        ],
      });
    });

    it('moves SDK config fields sent inside generationConfig to where the REST API takes them', () => {
      const body = {
        contents: [HI],
        generation_config: {
          temperature: 0.5,
          system_instruction: { parts: [{ text: 'Be brief.' }] },
          tools: [{ code_execution: {} }],
          http_options: { timeout: 5 },
        },
      };
      expect(encode(decodeClient(body)).value).toEqual({
        contents: [HI],
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        tools: [{ codeExecution: {} }],
        generationConfig: { temperature: 0.5 },
      });
    });
  });

  describe('canonical path', () => {
    it('rebuilds a dialect-C request from its canonical form, leaving out ids Rosetta derived', () => {
      const { passthrough: _passthrough, ...request } = decodeClient(fixtureJson('dialect-c-request-camel.json'));
      const { value, warnings } = encode(request);
      expect(value).toEqual(fixtureJson('gemini-upstream-request-rebuilt.json'));
      expect(warnings).toEqual([]);
    });

    it('encodes a request from another dialect, warning about what Gemini cannot carry', () => {
      const { value, warnings } = encode(fixtureJson<CanonicalRequest>('canonical-request-cross.json'));
      expect(value).toEqual(fixtureJson('gemini-upstream-request-cross.json'));
      expect(warnings).toEqual([
        { feature: 'image', message: "The image given as file id 'file-abc' cannot be sent to Gemini; dropped." },
        {
          feature: 'tool_result',
          message: "Non-text content in the result of tool call 'toolu_02' cannot be sent to Gemini; only its text was kept.",
        },
        { feature: 'messages[5]', message: 'Gemini takes system text only at the start; it was moved there.' },
        { feature: 'parallel_tool_calls', message: 'Gemini cannot be told to call one tool at a time; dropped.' },
        { feature: 'stop', message: 'Gemini takes at most 5 stop sequences; the rest were dropped.' },
        { feature: 'thinking', message: "Gemini has no thinking level 'xhigh'; using HIGH." },
      ]);
    });

    it.each([
      [{ enabled: false }, { thinkingBudget: 0 }, []],
      [{ enabled: false, effort: 'none' }, { thinkingBudget: 0 }, []],
      [{ enabled: true, budgetTokens: 2048 }, { thinkingBudget: 2048, includeThoughts: true }, []],
      [{ enabled: true, budgetTokens: 512, includeThoughts: false }, { thinkingBudget: 512, includeThoughts: false }, []],
      [{ enabled: true, effort: 'minimal' }, { thinkingLevel: 'MINIMAL', includeThoughts: true }, []],
      [{ enabled: true, effort: 'medium' }, { thinkingLevel: 'MEDIUM', includeThoughts: true }, []],
      [{ enabled: true }, { includeThoughts: true }, []],
      [{ enabled: true, effort: 'turbo' }, { includeThoughts: true }, ['thinking']],
    ])('encodes thinking %j as %j', (thinking, thinkingConfig, features) => {
      const { value, warnings } = encode({ ...base, thinking });
      expect(value).toEqual({ contents: [HI], generationConfig: { thinkingConfig } });
      expect(warnings.map((warning) => warning.feature)).toEqual(features);
    });

    it('leaves thinking alone unless the request said something, and maps tool choices and JSON output', () => {
      expect(encode(base)).toEqual({ value: { contents: [HI] }, warnings: [] });
      const { value } = encode({
        ...base,
        toolChoice: { type: 'tool', name: 'f' },
        temperature: 2.5,
        responseFormat: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true },
      });
      expect(value).toEqual({
        contents: [HI],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] } },
        generationConfig: { temperature: 2, responseMimeType: 'application/json', responseJsonSchema: { type: 'object' } },
      });
      expect(encode({ ...base, toolChoice: { type: 'none' } }).value['toolConfig']).toEqual({ functionCallingConfig: { mode: 'NONE' } });
      expect(encode({ ...base, toolChoice: { type: 'auto' } }).value['toolConfig']).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    });

    it.each([
      ['{"city":', 'messages[1].content[0].arguments', 'are not valid JSON'],
      ['[1]', 'messages[1].content[0].arguments', 'must be a JSON object'],
    ])('refuses tool-call arguments %s naming %s', (args, param, message) => {
      const request: CanonicalRequest = {
        ...base,
        messages: [...base.messages, { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'f', arguments: args }] }],
      };
      expect(() => encode(request)).toThrow(GatewayError);
      expect(() => encode(request)).toThrow(expect.objectContaining({ status: 400, param, message: expect.stringContaining(message) }));
    });

    it('refuses a tool result whose function name cannot be known', () => {
      const request: CanonicalRequest = {
        ...base,
        messages: [{ role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_x', content: [{ type: 'text', text: '1' }] }] }],
      };
      expect(() => encode(request)).toThrow(expect.objectContaining({ status: 400, param: 'messages[0].content[0]' }));
    });
  });
});

describe('function calls replayed to Gemini 3', () => {
  const history: CanonicalRequest = {
    ...base,
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo and Bergen?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
          { type: 'tool_call', id: 'call_2', name: 'get_weather', arguments: '{"city":"Bergen"}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool_result', toolCallId: 'call_1', toolName: 'get_weather', content: [{ type: 'text', text: '-3C' }] },
          { type: 'tool_result', toolCallId: 'call_2', toolName: 'get_weather', content: [{ type: 'text', text: '2C' }] },
        ],
      },
    ],
  };
  const modelParts = (value: Record<string, unknown>) => (value['contents'] as Array<{ role: string; parts: Array<Record<string, unknown>> }>).find((c) => c.role === 'model')!.parts;

  it('tells the model generations apart by name', () => {
    expect(['gemini-3-pro-preview', 'models/gemini-3.1-flash', 'gemini-10-ultra'].every(requiresCallSignatures)).toBe(true);
    expect(['gemini-2.5-flash', 'gemini-1.5-pro', 'gemma-3-27b', 'gpt-4o'].some(requiresCallSignatures)).toBe(false);
  });

  it('gives the first unsigned call of each turn the documented dummy signature, and says so', () => {
    const { value, warnings } = convertToGeminiRequest({ request: history, upstreamModel: 'gemini-3-pro-preview' });
    const parts = modelParts(value);
    expect(parts.map((p) => p['thoughtSignature'])).toEqual([undefined, SKIP_SIGNATURE, undefined]);
    expect(warnings.map((w) => w.feature)).toContain('thought_signature');
  });

  it('leaves Gemini 2.5 and turns that carry a Gemini signature alone', () => {
    expect(modelParts(convertToGeminiRequest({ request: history, upstreamModel: 'gemini-2.5-flash' }).value).some((p) => 'thoughtSignature' in p)).toBe(false);
    const signed = structuredClone(history);
    const call = signed.messages[1]!.content[1]!;
    if (call.type !== 'tool_call') throw new Error('fixture: expected a tool call');
    call.signature = { protocol: 'gemini', value: 'CiQBsigned' };
    const { value, warnings } = convertToGeminiRequest({ request: signed, upstreamModel: 'gemini-3-pro-preview' });
    expect(modelParts(value).map((p) => p['thoughtSignature'])).toEqual([undefined, 'CiQBsigned', undefined]);
    expect(warnings.map((w) => w.feature)).not.toContain('thought_signature');
  });

  it('signs foreign calls on the fast path too', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'Weather?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: -3 } } }] },
      ],
    };
    const request = { ...base, passthrough: { protocol: 'gemini' as const, body } };
    const { value } = convertToGeminiRequest({ request, upstreamModel: 'gemini-3-flash-preview' });
    expect(modelParts(value)[0]).toEqual({ functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: SKIP_SIGNATURE });
    expect(body.contents[1]!.parts[0]).not.toHaveProperty('thoughtSignature');
  });
});
