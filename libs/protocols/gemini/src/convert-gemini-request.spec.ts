import { GatewayError, type CanonicalRequest } from '@rosetta/canonical';
import { fixtureJson } from './__fixtures__/load-fixture';
import { convertGeminiRequest } from './convert-gemini-request';
import { normalizeGeminiRequest } from './normalize-gemini-request';

const MODEL = 'rosetta/gemini-2.5-flash';
const user = (text: string) => ({ role: 'user', parts: [{ text }] });
const minimal = (extra: Record<string, unknown> = {}) => ({ contents: [user('Hi')], ...extra });

function decode(body: Record<string, unknown>, stream = false) {
  const { value, warnings } = convertGeminiRequest({ body: normalizeGeminiRequest(body), model: MODEL, stream });
  const { passthrough, ...request } = value;
  return { request, passthrough, warnings };
}

function failure(body: Record<string, unknown>): GatewayError {
  try {
    decode(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected the conversion to fail');
}

const EXPECTED_WARNINGS = [
  { feature: 'tools[1]', message: "Tool 'googleSearch' has no equivalent outside Gemini; only a Gemini upstream receives it." },
  { feature: 'safetySettings', message: 'Safety settings apply only on a Gemini upstream.' },
];

describe('convertGeminiRequest', () => {
  it.each(['camel', 'snake'])('reads the %s spelling of a full request into the same canonical request', (spelling) => {
    const body = normalizeGeminiRequest(fixtureJson(`dialect-c-request-${spelling}.json`));
    const { value, warnings } = convertGeminiRequest({ body, model: MODEL, stream: true });
    const { passthrough, ...request } = value;
    expect(request).toEqual(fixtureJson<Omit<CanonicalRequest, 'passthrough'>>('dialect-c-request.canonical.json'));
    expect(warnings).toEqual(EXPECTED_WARNINGS);
    expect(passthrough?.protocol).toBe('gemini');
    expect(passthrough?.body).toBe(body);
  });

  it('reads a minimal request', () => {
    expect(decode(minimal())).toEqual({
      request: { model: MODEL, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false, routing: {} },
      passthrough: { protocol: 'gemini', body: minimal() },
      warnings: [],
    });
  });

  it('derives the same call ids on every turn, so a response matched by name keeps answering its call', () => {
    const turn1 = [user('Weather?'), { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] }];
    const turn2 = [...turn1, { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 18 } } }] }];
    const turn3 = [...turn2, { role: 'model', parts: [{ text: '18 degrees.' }] }, user('Thanks')];
    const callIds = (contents: unknown[]) =>
      decode({ contents }).request.messages.flatMap((message) =>
        message.content.flatMap((part) => (part.type === 'tool_call' ? [part.id] : part.type === 'tool_result' ? [part.toolCallId] : [])),
      );
    expect(callIds(turn1)).toEqual(['call_gemini_1_0']);
    expect(callIds(turn2)).toEqual(['call_gemini_1_0', 'call_gemini_1_0']);
    expect(callIds(turn3)).toEqual(['call_gemini_1_0', 'call_gemini_1_0']);
  });

  it('matches responses by id first, then by name in call order, and names orphans by position', () => {
    const contents = [
      user('Go'),
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'a', args: {} } },
          { functionCall: { name: 'b', args: {}, id: 'b-1' } },
          { functionCall: { name: 'a', args: { n: 2 } } },
        ],
      },
      {
        role: 'function',
        parts: [
          { functionResponse: { name: 'b', response: { output: 'B' } } },
          { functionResponse: { name: 'a', id: 'call_gemini_1_2', response: { output: 'A2' } } },
          { functionResponse: { name: 'a', response: { output: 'A1' } } },
          { functionResponse: { name: 'zzz', response: { error: { message: 'boom' } } } },
          { text: 'And now?' },
        ],
      },
    ];
    const { request } = decode({ contents });
    expect(request.messages.slice(2)).toEqual([
      {
        role: 'tool',
        content: [
          { type: 'tool_result', toolCallId: 'b-1', toolName: 'b', content: [{ type: 'text', text: 'B' }] },
          { type: 'tool_result', toolCallId: 'call_gemini_1_2', toolName: 'a', content: [{ type: 'text', text: 'A2' }] },
          { type: 'tool_result', toolCallId: 'call_gemini_1_0', toolName: 'a', content: [{ type: 'text', text: 'A1' }] },
          {
            type: 'tool_result',
            toolCallId: 'call_gemini_2_3',
            toolName: 'zzz',
            content: [{ type: 'text', text: '{"error":{"message":"boom"}}' }],
            isError: true,
          },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'And now?' }] },
    ]);
  });

  it('joins a streamed model reply recorded chunk by chunk, keeping each signature on its block', () => {
    const model = (part: Record<string, unknown>) => ({ role: 'model', parts: [part] });
    const wrapped = 'rosetta-sig.anthropic.RXFRQmNsYXVkZQ';
    const { request } = decode({
      contents: [
        user('Hi'),
        model({ text: 'Think', thought: true }),
        model({ text: 'ing.', thought: true }),
        model({ thought: true, thoughtSignature: wrapped }),
        model({ text: 'Hel' }),
        model({ text: 'lo', thoughtSignature: 'sig-text' }),
        model({ text: ' again' }),
        model({ text: '' }),
        model({ functionCall: { name: 'f', args: {} }, thoughtSignature: 'sig-call' }),
      ],
    });
    expect(request.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'Thinking.', signature: { protocol: 'anthropic', value: 'EqQBclaude' } },
        { type: 'text', text: 'Hello', signature: { protocol: 'gemini', value: 'sig-text' } },
        { type: 'text', text: ' again' },
        { type: 'tool_call', id: 'call_gemini_8_0', name: 'f', arguments: '{}', signature: { protocol: 'gemini', value: 'sig-call' } },
      ],
    });
  });

  it('reads media by MIME type, warning about what has no canonical form', () => {
    const { request, warnings } = decode({
      contents: [
        {
          parts: [
            { inline_data: { mime_type: 'audio/mpeg', data: 'SUQz' } },
            { inlineData: { mimeType: 'text/plain', data: 'aGk=' } },
            { fileData: { fileUri: 'gs://bucket/cat.PNG' } },
            { fileData: { fileUri: 'https://example.test/doc', displayName: 'Doc' } },
            { inlineData: { mimeType: 'video/mp4', data: 'AAAA' } },
            { executableCode: { language: 'PYTHON', code: 'print(1)' } },
          ],
        },
        { role: 'model', parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBO' } }, { text: 'Done' }] },
      ],
    });
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'audio', data: 'SUQz', format: 'mp3' },
          { type: 'document', source: { kind: 'base64', mediaType: 'text/plain', data: 'aGk=' } },
          { type: 'image', source: { kind: 'url', url: 'gs://bucket/cat.PNG', mediaType: 'image/png' } },
          { type: 'document', source: { kind: 'url', url: 'https://example.test/doc' }, title: 'Doc' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Done' }] },
    ]);
    expect(warnings).toEqual([
      { feature: 'contents[0].parts[4]', message: "Media of type 'video/mp4' at 'contents[0].parts[4]' has no canonical form; dropped." },
      { feature: 'contents[0].parts[5]', message: "'executableCode' at 'contents[0].parts[5]' has no canonical form; dropped." },
      { feature: 'contents[1].parts[0]', message: "Media in a model turn ('contents[1].parts[0]') has no canonical form; dropped." },
    ]);
  });

  it.each([
    [{ mode: 'AUTO' }, { type: 'auto' }, []],
    [{ mode: 'NONE' }, { type: 'none' }, []],
    [{ mode: 'ANY' }, { type: 'required' }, []],
    [{ mode: 'ANY', allowedFunctionNames: ['f'] }, { type: 'tool', name: 'f' }, []],
    [{ mode: 'ANY', allowedFunctionNames: ['f', 'g'] }, { type: 'required' }, ['toolConfig.functionCallingConfig.allowedFunctionNames']],
    [{ mode: 'VALIDATED' }, { type: 'auto' }, []],
    [{ mode: 'VALIDATED', allowedFunctionNames: ['f'] }, { type: 'auto' }, ['toolConfig.functionCallingConfig.allowedFunctionNames']],
    [{ mode: 'MODE_UNSPECIFIED' }, undefined, []],
  ])('reads functionCallingConfig %j as %j', (config, toolChoice, features) => {
    const { request, warnings } = decode(minimal({ toolConfig: { functionCallingConfig: config } }));
    expect(request.toolChoice).toEqual(toolChoice);
    expect(warnings.map((warning) => warning.feature)).toEqual(features);
  });

  it.each([
    [{ thinkingBudget: 0 }, { enabled: false }],
    [{ thinkingBudget: -1, includeThoughts: true }, { enabled: true, includeThoughts: true }],
    [{ thinkingLevel: 'HIGH' }, { enabled: true, effort: 'high' }],
    [{ thinkingLevel: 'THINKING_LEVEL_UNSPECIFIED' }, undefined],
    [{}, undefined],
  ])('reads thinkingConfig %j as %j', (thinkingConfig, thinking) => {
    expect(decode(minimal({ generationConfig: { thinkingConfig } })).request.thinking).toEqual(thinking);
  });

  it('reads JSON output with and without a schema, converting a Gemini Schema to JSON Schema', () => {
    const format = (config: Record<string, unknown>) => decode(minimal({ generationConfig: config })).request.responseFormat;
    expect(format({ responseMimeType: 'application/json' })).toEqual({ type: 'json_object' });
    expect(format({ responseMimeType: 'text/plain' })).toBeUndefined();
    expect(
      format({ responseMimeType: 'application/json', responseSchema: { type: 'ARRAY', items: { type: 'INTEGER', nullable: true, example: 3 } } }),
    ).toEqual({ type: 'json_schema', schema: { type: 'array', items: { type: ['integer', 'null'], examples: [3] } } });
    const enumType = decode(minimal({ generationConfig: { responseMimeType: 'text/x.enum' } }));
    expect(enumType.warnings).toEqual([
      { feature: 'generationConfig.responseMimeType', message: "Response type 'text/x.enum' applies only on a Gemini upstream." },
    ]);
  });

  it('reads the SDK config form, with system instruction and tools inside generationConfig', () => {
    const { request } = decode(
      minimal({
        generationConfig: {
          systemInstruction: 'Be brief.',
          tools: [{ functionDeclarations: [{ name: 'f' }] }],
          toolConfig: { functionCallingConfig: { mode: 'NONE' } },
        },
      }),
    );
    expect(request).toEqual({
      model: MODEL,
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      ],
      tools: [{ name: 'f' }],
      toolChoice: { type: 'none' },
      stream: false,
      routing: {},
    });
  });

  it.each([
    [{}, 'contents'],
    [{ contents: [] }, 'contents'],
    [{ contents: ['hi'] }, 'contents[0]'],
    [{ contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, 'contents[0].role'],
    [{ contents: [{ role: 'user', parts: 'x' }] }, 'contents[0].parts'],
    [{ contents: [user('a'), { role: 'user', parts: [{ video: 1 }] }] }, 'contents[1].parts[0]'],
    [{ contents: [user('a'), { role: 'user', parts: [{ text: 5 }] }] }, 'contents[1].parts[0].text'],
    [{ contents: [{ role: 'user', parts: [{ functionCall: { name: 'f' } }] }] }, 'contents[0].parts[0].functionCall'],
    [{ contents: [{ role: 'model', parts: [{ functionResponse: { name: 'f' } }] }] }, 'contents[0].parts[0].functionResponse'],
    [{ contents: [{ role: 'model', parts: [{ functionCall: { args: {} } }] }] }, 'contents[0].parts[0].functionCall.name'],
    [{ contents: [{ role: 'model', parts: [{ functionCall: { name: 'f', args: [1] } }] }] }, 'contents[0].parts[0].functionCall.args'],
    [{ contents: [{ parts: [{ functionResponse: { response: {} } }] }] }, 'contents[0].parts[0].functionResponse.name'],
    [{ contents: [{ parts: [{ functionResponse: { name: 'f', response: 'x' } }] }] }, 'contents[0].parts[0].functionResponse.response'],
    [{ contents: [{ parts: [{ inlineData: { data: 'x' } }] }] }, 'contents[0].parts[0].inlineData.mimeType'],
    [{ contents: [{ parts: [{ fileData: { mimeType: 'image/png' } }] }] }, 'contents[0].parts[0].fileData.fileUri'],
    [minimal({ systemInstruction: { parts: [{ inlineData: { mimeType: 'image/png', data: 'x' } }] } }), 'systemInstruction.parts[0]'],
    [minimal({ tools: { functionDeclarations: [] } }), 'tools'],
    [minimal({ tools: [{ functionDeclarations: [{ description: 'no name' }] }] }), 'tools[0].functionDeclarations[0].name'],
    [minimal({ tools: [{ functionDeclarations: [{ name: 'f', parameters: 'x' }] }] }), 'tools[0].functionDeclarations[0].parameters'],
    [minimal({ toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } }), 'toolConfig.functionCallingConfig.mode'],
    [minimal({ generationConfig: { temperature: 'hot' } }), 'generationConfig.temperature'],
    [minimal({ generationConfig: { stopSequences: 'END' } }), 'generationConfig.stopSequences'],
    [minimal({ generationConfig: { thinkingConfig: { thinkingBudget: 'lots' } } }), 'generationConfig.thinkingConfig.thinkingBudget'],
    [minimal({ generationConfig: { responseMimeType: 'application/json', responseJsonSchema: true } }), 'generationConfig.responseJsonSchema'],
    [minimal({ provider_sort: 'cheapest' }), 'provider_sort'],
  ])('rejects %j naming %s', (body, param) => {
    const error = failure(body);
    expect({ type: error.type, status: error.status, param: error.param }).toEqual({ type: 'invalid_request_error', status: 400, param });
    expect(error.message).toContain(param);
  });
});
