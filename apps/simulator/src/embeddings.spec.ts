import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { float32Base64, nativeDimensions, simulatedEmbedding } from './embedding-vectors';
import { startSimulator, type RunningSimulator } from './simulator';

/** The simulator's embeddings, against the official SDKs: the vectors they decode are the simulator's, bit for bit. */
describe('simulated embeddings', () => {
  let sim: RunningSimulator;
  let openai: OpenAI;
  let ai: GoogleGenAI;

  beforeAll(async () => {
    sim = await startSimulator();
    openai = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'sk-sdk', maxRetries: 0 });
    ai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: sim.url, fetch: (input, init) => fetch(input, init) } });
  });
  afterAll(async () => {
    await sim.close();
  });
  beforeEach(() => sim.reset());

  const post = async (path: string, body: unknown, headers: Record<string, string> = { authorization: 'Bearer sk' }) => {
    const res = await fetch(`${sim.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };

  describe('vectors', () => {
    it('are deterministic, unit length at full size, and float32 values', () => {
      const spec = { model: 'text-embedding-3-small', input: 'hello', flavour: 'openai' as const };
      const a = simulatedEmbedding(spec);
      expect(a).toEqual(simulatedEmbedding(spec));
      expect(a).toHaveLength(1536);
      expect(a.every((v) => Math.fround(v) === v)).toBe(true);
      expect(Math.abs(Math.hypot(...a) - 1)).toBeLessThan(1e-5);
      expect(simulatedEmbedding({ ...spec, input: 'hello!' })).not.toEqual(a);
    });

    it('shorten as each API does: OpenAI normalises again, Gemini truncates', () => {
      const openai = simulatedEmbedding({ model: 'text-embedding-3-small', input: 'x', dimensions: 8, flavour: 'openai' });
      const gemini = simulatedEmbedding({ model: 'gemini-embedding-001', input: 'x', dimensions: 8, flavour: 'gemini' });
      const full = simulatedEmbedding({ model: 'gemini-embedding-001', input: 'x', flavour: 'gemini' });
      expect(Math.abs(Math.hypot(...openai) - 1)).toBeLessThan(1e-6);
      expect(gemini).toEqual(full.slice(0, 8));
      expect(nativeDimensions('models/gemini-embedding-001')).toBe(3072);
    });
  });

  describe('OpenAI /v1/embeddings', () => {
    it('answers the SDK in base64 by default, which it decodes to the simulator\'s float32 vectors', async () => {
      const res = await openai.embeddings.create({ model: 'text-embedding-3-small', input: ['first text', 'second'] });
      expect(res).toEqual({
        object: 'list',
        model: 'text-embedding-3-small',
        data: [
          { object: 'embedding', index: 0, embedding: simulatedEmbedding({ model: 'text-embedding-3-small', input: 'first text', flavour: 'openai' }) },
          { object: 'embedding', index: 1, embedding: simulatedEmbedding({ model: 'text-embedding-3-small', input: 'second', flavour: 'openai' }) },
        ],
        usage: { prompt_tokens: 5, total_tokens: 5 },
      });
      expect(sim.requests()[0]).toMatchObject({ protocol: 'openai', path: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: ['first text', 'second'], encoding_format: 'base64' } });
    });

    it('answers floats when asked, honours dimensions, and takes token ids', async () => {
      const res = await openai.embeddings.create({ model: 'text-embedding-3-small', input: [[1, 2, 3]], dimensions: 4, encoding_format: 'float' });
      expect(res.data[0]!.embedding).toEqual(simulatedEmbedding({ model: 'text-embedding-3-small', input: [1, 2, 3], dimensions: 4, flavour: 'openai' }));
      expect(res.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
      const raw = await post('/v1/embeddings', { model: 'm', input: 'abc', encoding_format: 'base64', dimensions: 2 });
      expect(raw.body.data[0].embedding).toBe(float32Base64(simulatedEmbedding({ model: 'm', input: 'abc', dimensions: 2, flavour: 'openai' })));
    });

    it.each([
      [{ model: 'm', input: '' }, "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", 'input'],
      [{ model: 'm', input: [] }, "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", 'input'],
      [{ model: 'm', input: 'x', provider_order: ['a'] }, 'Unrecognized request argument supplied: provider_order', null],
      [{ model: 'text-embedding-ada-002', input: 'x', dimensions: 8 }, 'This model does not support specifying dimensions.', 'dimensions'],
      [{ model: 'text-embedding-3-small', input: 'x', dimensions: 2000 }, 'This model does not support dimensions larger than 1536.', 'dimensions'],
      [{ model: 'm', input: 'x', encoding_format: 'hex' }, "Invalid value for 'encoding_format': expected 'float' or 'base64'.", 'encoding_format'],
    ])('refuses %j as OpenAI does', async (body, message, param) => {
      expect(await post('/v1/embeddings', body)).toEqual({ status: 400, body: { error: { message, type: 'invalid_request_error', param, code: null } } });
    });

    it('plays scripted errors and faults like chat', async () => {
      sim.script({ match: 'rate me', reply: { error: { status: 429, message: 'slow down', retryAfterSeconds: 2 } } });
      const limited = await fetch(`${sim.url}/v1/embeddings`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', input: ['a', 'please rate me'] }) });
      expect([limited.status, limited.headers.get('retry-after'), ((await limited.json()) as any).error.code]).toEqual([429, '2', 'rate_limit_exceeded']);
      const garbage = await fetch(`${sim.url}/v1/embeddings`, { method: 'POST', headers: { authorization: 'Bearer k' }, body: JSON.stringify({ model: 'm', input: '<sim>{"fault":{"kind":"garbage"}}</sim>' }) });
      expect(garbage.status).toBe(200);
      await expect(garbage.json()).rejects.toThrow();
    });
  });

  describe('Gemini :embedContent and :batchEmbedContents', () => {
    it('answers @google/genai (which calls batchEmbedContents with models/… in each request)', async () => {
      const res = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: ['one', 'two'], config: { taskType: 'RETRIEVAL_QUERY', outputDimensionality: 16 } });
      const expected = (input: string) => simulatedEmbedding({ model: 'gemini-embedding-001', input, dimensions: 16, taskType: 'RETRIEVAL_QUERY', flavour: 'gemini' });
      expect(res.embeddings).toEqual([{ values: expected('one') }, { values: expected('two') }]);
      expect(sim.requests()[0]).toMatchObject({
        protocol: 'gemini',
        path: '/v1beta/models/gemini-embedding-001:batchEmbedContents',
        body: { requests: [{ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'one' }] }, taskType: 'RETRIEVAL_QUERY', outputDimensionality: 16 }, expect.anything()] },
      });
    });

    it('answers embedContent (snake_case too) with one vector and no usage', async () => {
      const res = await post('/v1beta/models/gemini-embedding-001:embedContent', { content: { parts: [{ text: 'doc' }] }, task_type: 'RETRIEVAL_DOCUMENT', title: 'T' }, { 'x-goog-api-key': 'k' });
      expect(res).toEqual({ status: 200, body: { embedding: { values: simulatedEmbedding({ model: 'gemini-embedding-001', input: 'doc', taskType: 'RETRIEVAL_DOCUMENT', title: 'T', flavour: 'gemini' }) } } });
    });

    it.each([
      ['batchEmbedContents', { requests: [{ content: { parts: [{ text: 'x' }] } }] }, "* BatchEmbedContentsRequest.requests[0].model: the model must be 'models/gemini-embedding-001', the model in the URL"],
      ['batchEmbedContents', { requests: Array.from({ length: 101 }, () => ({ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'x' }] } })) }, '* BatchEmbedContentsRequest.requests: at most 100 requests can be in one batch'],
      ['embedContent', { content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] } }, 'Invalid JSON payload received. Unknown name "inlineData" at \'EmbedContentRequest.content.parts[0]\': Cannot find field.'],
      ['embedContent', { content: { parts: [{ text: 'x' }] }, outputDimensionality: 4000 }, '* EmbedContentRequest.output_dimensionality: must be at most 3072 for this model'],
      ['embedContent', { content: { parts: [{ text: 'x' }] }, provider_sort: 'price' }, 'Invalid JSON payload received. Unknown name "provider_sort" at \'EmbedContentRequest\': Cannot find field.'],
    ])('refuses a bad %s body as Google does', async (method, body, message) => {
      expect(await post(`/v1beta/models/gemini-embedding-001:${method}`, body, { 'x-goog-api-key': 'k' })).toEqual({ status: 400, body: { error: { code: 400, message, status: 'INVALID_ARGUMENT' } } });
    });

    it('plays a scripted 503 in Google\'s envelope', async () => {
      sim.script({ match: 'busy', reply: { error: { status: 503, message: 'overloaded' } } });
      expect(await post('/v1beta/models/gemini-embedding-001:embedContent', { content: { parts: [{ text: 'busy now' }] } }, { 'x-goog-api-key': 'k' })).toEqual({
        status: 503,
        body: { error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } },
      });
    });
  });
});
