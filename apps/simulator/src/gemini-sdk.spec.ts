import { ApiError, FunctionCallingConfigMode, GoogleGenAI, Type, type Content, type FunctionDeclaration } from '@google/genai';
import { verifyThinkingSignature } from './signatures';
import { startSimulator, type RunningSimulator } from './simulator';

// @google/genai forces `?alt=sse` for streams, splits events on blank lines and throws on a
// bare error chunk; generateContent maps camelCase fields. These tests pin the wire format to it.
describe('the official @google/genai SDK against the simulator', () => {
  let sim: RunningSimulator;
  let ai: GoogleGenAI;

  const weather: FunctionDeclaration = {
    name: 'get_weather',
    description: 'Get weather',
    parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] },
  };

  beforeAll(async () => {
    sim = await startSimulator();
    // An explicit fetch: without one the SDK wraps Node's global undici dispatcher, which it looks
    // up on globalThis, and Jest's sandboxed globalThis does not have it. Requests and response
    // parsing are still entirely the SDK's.
    ai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: sim.url, fetch: (input, init) => fetch(input, init) } });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('generates content with usage metadata', async () => {
    const response = await ai.models.generateContent({
      model: 'gemini-sim',
      contents: 'Hello SDK',
      config: { systemInstruction: 'Be terse.' },
    });
    expect(response.text).toBe('Simulated reply from gemini-sim: Hello SDK');
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
    expect(response.usageMetadata).toEqual({ promptTokenCount: 5, candidatesTokenCount: 6, totalTokenCount: 11 });
    expect(response.modelVersion).toBe('gemini-sim');
    const recorded = sim.requests().at(-1);
    expect(recorded?.protocol).toBe('gemini');
    expect(recorded?.headers['x-goog-api-key']).toBe('k');
  });

  it('streams content chunk by chunk, with the finish reason on the last chunk', async () => {
    const stream = await ai.models.generateContentStream({ model: 'gemini-sim', contents: 'stream this please' });
    const texts: string[] = [];
    const finishes: unknown[] = [];
    for await (const chunk of stream) {
      texts.push(chunk.text ?? '');
      finishes.push(chunk.candidates?.[0]?.finishReason);
    }
    expect(texts.join('')).toBe('Simulated reply from gemini-sim: stream this please');
    expect(texts).toHaveLength(7);
    expect(finishes.slice(-1)).toEqual(['STOP']);
    expect(finishes.slice(0, -1).every((finish) => finish === undefined)).toBe(true);
    expect(sim.requests().at(-1)?.path).toBe('/v1beta/models/gemini-sim:streamGenerateContent?alt=sse');
  });

  it('round-trips a function call with its thought signature and gets the tool-results default', async () => {
    const config = {
      tools: [{ functionDeclarations: [weather] }],
      toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } },
      thinkingConfig: { includeThoughts: true },
    };
    const question: Content = { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] };
    const first = await ai.models.generateContent({ model: 'gemini-sim', contents: [question], config });
    expect(first.functionCalls).toEqual([{ name: 'get_weather', args: { city: 'example' } }]);
    const parts = first.candidates?.[0]?.content?.parts ?? [];
    expect(parts[0]).toEqual({ text: 'Considering: What is the weather in Paris?', thought: true });
    const signature = parts[1]?.thoughtSignature ?? '';
    expect(verifyThinkingSignature('gemini', 'get_weather', signature)).toBe(true);
    expect(first.candidates?.[0]?.finishReason).toBe('STOP');

    const modelTurn = first.candidates?.[0]?.content;
    if (!modelTurn) throw new Error('no model content');
    const answer: Content = { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: '18C and sunny' } } }] };
    const second = await ai.models.generateContent({
      model: 'gemini-sim',
      contents: [question, modelTurn, answer],
      config: { ...config, toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.AUTO } } },
    });
    expect(second.text).toBe('Tool results received: 18C and sunny');

    const tampered: Content = { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'example' } }, thoughtSignature: 'AAAA' }] };
    const rejected = ai.models.generateContent({ model: 'gemini-sim', contents: [question, tampered, answer] });
    await expect(rejected).rejects.toMatchObject({ name: 'ApiError', status: 400, message: expect.stringContaining('Corrupted thought signature.') });
  });

  it('streams a function call whole in the last chunk', async () => {
    const stream = await ai.models.generateContentStream({
      model: 'gemini-sim',
      contents: 'weather?',
      config: { tools: [{ functionDeclarations: [weather] }], toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } } },
    });
    const calls: unknown[] = [];
    for await (const chunk of stream) calls.push(...(chunk.functionCalls ?? []));
    expect(calls).toEqual([{ name: 'get_weather', args: { city: 'example' } }]);
  });

  it('throws ApiError for planned HTTP errors and for an in-stream error chunk', async () => {
    const directive = JSON.stringify({ error: { status: 429, message: 'Resource has been exhausted' } });
    const limited = ai.models.generateContent({ model: 'gemini-sim', contents: `<sim>${directive}</sim>` });
    await expect(limited).rejects.toBeInstanceOf(ApiError);
    await expect(ai.models.generateContent({ model: 'gemini-sim', contents: `<sim>${directive}</sim>` })).rejects.toMatchObject({ status: 429 });

    const failing = JSON.stringify({ text: 'a b c d', streamErrorAfterChunks: 2 });
    const stream = await ai.models.generateContentStream({ model: 'gemini-sim', contents: `<sim>${failing}</sim>` });
    const received: string[] = [];
    const consume = async (): Promise<void> => {
      for await (const chunk of stream) received.push(chunk.text ?? '');
    };
    await expect(consume()).rejects.toMatchObject({ name: 'ApiError', status: 500 });
    expect(received).toEqual(['a ', 'b ']);
  });
});
