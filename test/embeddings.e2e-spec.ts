import { createOpenAI } from '@ai-sdk/openai';
import { GoogleGenAI } from '@google/genai';
import { embedMany } from 'ai';
import OpenAI from 'openai';
import type { RunningSimulator } from '../apps/simulator/src';
import { estimated, GEM, geminiVector, ledger as ledgerOf, openaiVector, PRICE, startEmbeddingsStack, TE3, type EmbeddingsStack } from './support/embeddings-stack';
import type { GatewayProcess } from './support/gateway-process';

/**
 * Embeddings end to end: the official `openai` SDK (`embeddings.create`, base64 by default, and
 * floats) and `@google/genai` (`models.embedContent`, which calls `:batchEmbedContents`) against
 * the gateway, with the simulator behind it serving each embedding model over its own protocol
 * and over the other (the `*-mirror` providers of test/support/embeddings-stack.ts). The vectors
 * the SDKs decode are the simulator's, bit for bit; every request that reached an upstream has its
 * ledger row and its cost.
 */
/** `usage.cost` is rounded to the pico-dollar (12 × 2e-8 is 2.4000000000000003e-7 in floating point; the answer says 2.4e-7). */
const toPicoUsd = (usd: number): number => Math.round(usd * 1e12) / 1e12;

describe('embeddings through the official SDKs, to both upstream protocols', () => {
  let stack: EmbeddingsStack;
  let sim: RunningSimulator;
  let gateway: GatewayProcess;
  let key: string;
  let openai: OpenAI;
  let ai: GoogleGenAI;

  beforeAll(async () => {
    stack = await startEmbeddingsStack();
    ({ sim, gateway, key } = stack);
    openai = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gateway.url, fetch: (input, init) => fetch(input, init) } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  beforeEach(() => sim.reset());

  const ledger = (requestId: string | null) => ledgerOf(gateway, requestId);
  /** The routing fields ride in the body; the SDK merges `extraBody` into it (its own keys still go as the SDK sends them). */
  const onlyVia = (provider: string) => ({ baseUrl: gateway.url, extraBody: { provider_only: [provider] } });

  describe('the openai SDK', () => {
    it('decodes its default base64 answer to the simulator\'s vectors, from an OpenAI upstream, with the ledger row and cost', async () => {
      const { data: res, response } = await openai.embeddings.create({ model: TE3, input: ['The food was delicious.', 'The waiter was friendly.'], provider_order: ['openai'] } as OpenAI.EmbeddingCreateParams).withResponse();
      expect(res.data.map((d) => [d.index, d.embedding])).toEqual([
        [0, openaiVector('The food was delicious.')],
        [1, openaiVector('The waiter was friendly.')],
      ]);
      expect(res.model).toBe(TE3);
      // The simulator counts a quarter token per character: 6 + 6.
      expect(res.usage).toEqual({ prompt_tokens: 12, total_tokens: 12, cost: toPicoUsd(12 * PRICE[TE3]) });
      expect([response.headers.get('x-rosetta-model'), response.headers.get('x-rosetta-provider'), response.headers.get('x-rosetta-attempts'), response.headers.get('x-rosetta-cost-usd')]).toEqual([TE3, 'openai', '1', '0.00000024']);
      expect(sim.requests()).toEqual([
        expect.objectContaining({ protocol: 'openai', path: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: ['The food was delicious.', 'The waiter was friendly.'], encoding_format: 'float' } }),
      ]);
      expect(await ledger(response.headers.get('x-request-id'))).toMatchObject({
        dialect: 'openai', requested_model: TE3, served_model: TE3, provider: 'openai', status: 200, input_tokens: 12, output_tokens: 0, cost_usd: '0.00000024', streamed: false, attempts: 1,
      });
    });

    it('gets floats when it asks, and a shorter vector with dimensions, from a Gemini upstream', async () => {
      const res = await openai.embeddings.create({ model: TE3, input: 'Shorter, please.', dimensions: 64, encoding_format: 'float', provider_order: ['gemini-mirror'] } as OpenAI.EmbeddingCreateParams);
      // Gemini shortens by truncating, and that is what the caller gets.
      expect(res.data[0]!.embedding).toEqual(geminiVector('text-embedding-3-small', 'Shorter, please.', { dimensions: 64 }));
      expect(res.usage).toEqual({ prompt_tokens: estimated('Shorter, please.'), total_tokens: estimated('Shorter, please.'), cost: toPicoUsd(estimated('Shorter, please.') * PRICE[TE3]) });
      expect(sim.requests()[0]).toMatchObject({
        protocol: 'gemini',
        path: '/v1beta/models/text-embedding-3-small:embedContent',
        body: { model: 'models/text-embedding-3-small', content: { parts: [{ text: 'Shorter, please.' }] }, outputDimensionality: 64 },
      });
    });

    it('decodes base64 from a Gemini upstream bit for bit (gemini-embedding-001 served in its own protocol)', async () => {
      const { data: res, response } = await openai.embeddings.create({ model: GEM, input: ['alpha', 'beta'], dimensions: 256, provider_order: ['gemini'] } as OpenAI.EmbeddingCreateParams).withResponse();
      expect(res.data.map((d) => d.embedding)).toEqual([geminiVector('gemini-embedding-001', 'alpha', { dimensions: 256 }), geminiVector('gemini-embedding-001', 'beta', { dimensions: 256 })]);
      const tokens = estimated('alpha', 'beta');
      expect(res.usage.prompt_tokens).toBe(tokens);
      expect(response.headers.get('x-rosetta-provider')).toBe('gemini');
      expect(sim.requests()[0]!.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
      const row = await ledger(response.headers.get('x-request-id'));
      expect(row).toMatchObject({ served_model: GEM, provider: 'gemini', input_tokens: tokens, output_tokens: 0 });
      expect(Number(row.cost_usd)).toBeCloseTo(tokens * PRICE[GEM], 12);
    });

    it('splits 150 inputs into Gemini batches of 100 and returns them in order', async () => {
      const inputs = Array.from({ length: 150 }, (_, i) => `item ${i}`);
      const res = await openai.embeddings.create({ model: GEM, input: inputs, dimensions: 8, provider_order: ['gemini'] } as OpenAI.EmbeddingCreateParams);
      expect(res.data.map((d) => d.embedding)).toEqual(inputs.map((text) => geminiVector('gemini-embedding-001', text, { dimensions: 8 })));
      expect(sim.requests().map((r) => (r.body as { requests: unknown[] }).requests.length).sort()).toEqual([100, 50]);
    });
  });

  describe('the @google/genai SDK', () => {
    it('embeds through :batchEmbedContents with the task type kept, from a Gemini upstream', async () => {
      const res = await ai.models.embedContent({ model: GEM, contents: ['What is the meaning of life?', 'How do I bake a cake?'], config: { taskType: 'RETRIEVAL_QUERY', outputDimensionality: 768, httpOptions: onlyVia('gemini') } });
      expect(res.embeddings).toEqual([
        { values: geminiVector('gemini-embedding-001', 'What is the meaning of life?', { dimensions: 768, taskType: 'RETRIEVAL_QUERY' }) },
        { values: geminiVector('gemini-embedding-001', 'How do I bake a cake?', { dimensions: 768, taskType: 'RETRIEVAL_QUERY' }) },
      ]);
      const upstream = sim.requests()[0]!;
      expect(upstream.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
      expect((upstream.body as { requests: Array<Record<string, unknown>> }).requests[0]).toEqual({
        model: 'models/gemini-embedding-001', content: { parts: [{ text: 'What is the meaning of life?' }], role: 'user' }, taskType: 'RETRIEVAL_QUERY', outputDimensionality: 768,
      });
      const headers = res.sdkHttpResponse!.headers!;
      const row = await ledger(headers['x-request-id']!);
      expect(row).toMatchObject({ dialect: 'gemini', served_model: GEM, provider: 'gemini', input_tokens: estimated('What is the meaning of life?', 'How do I bake a cake?') });
      expect(headers['x-rosetta-cost-usd']).toBe(row.cost_usd);
    });

    it('embeds an OpenAI model: dimensions carried, the task type dropped with a warning', async () => {
      const res = await ai.models.embedContent({ model: TE3, contents: ['one', 'two'], config: { taskType: 'SEMANTIC_SIMILARITY', outputDimensionality: 32, httpOptions: onlyVia('openai') } });
      expect(res.embeddings).toEqual([{ values: openaiVector('one', 32) }, { values: openaiVector('two', 32) }]);
      expect(sim.requests()[0]).toMatchObject({ protocol: 'openai', body: { model: 'text-embedding-3-small', input: ['one', 'two'], dimensions: 32, encoding_format: 'float' } });
      expect(res.sdkHttpResponse!.headers!['x-rosetta-warnings']).toBe('taskType: OpenAI embeddings have no task type; dropped.');
    });

    it('answers :embedContent for one value (as the AI SDK calls it) with {embedding: {values}}', async () => {
      const res = await fetch(`${gateway.url}/v1beta/models/${GEM}:embedContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ model: `models/${GEM}`, content: { parts: [{ text: 'sunny day at the beach' }] }, taskType: 'RETRIEVAL_DOCUMENT', title: 'Beach', outputDimensionality: 16, provider_only: ['gemini'] }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ embedding: { values: geminiVector('gemini-embedding-001', 'sunny day at the beach', { dimensions: 16, taskType: 'RETRIEVAL_DOCUMENT', title: 'Beach' }) } });
    });
  });

  describe('the Vercel AI SDK', () => {
    it('embeds through its OpenAI provider (floats, dimensions as a provider option) to a Gemini upstream', async () => {
      // The AI SDK has no place for routing fields; a client that wants one provider adds it to the body.
      const provider = createOpenAI({
        apiKey: key,
        baseURL: `${gateway.url}/v1`,
        fetch: (input, init) => fetch(input, { ...init, body: JSON.stringify({ ...JSON.parse(String(init?.body)), provider_only: ['gemini'] }) }),
      });
      const { embeddings, usage } = await embedMany({ model: provider.embedding(GEM), values: ['red', 'green'], providerOptions: { openai: { dimensions: 32 } } });
      expect(embeddings).toEqual([geminiVector('gemini-embedding-001', 'red', { dimensions: 32 }), geminiVector('gemini-embedding-001', 'green', { dimensions: 32 })]);
      expect(usage).toEqual({ tokens: estimated('red', 'green') });
      expect(sim.requests()[0]).toMatchObject({ path: '/v1beta/models/gemini-embedding-001:batchEmbedContents' });
    });
  });
});
