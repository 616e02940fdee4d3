import { createOpenAI } from '@ai-sdk/openai';
import { ApiError, GoogleGenAI } from '@google/genai';
import { embedMany } from 'ai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { simulatedEmbedding, startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { estimateEmbeddingTokens } from '../libs/limits/src/token-estimator';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase, query } from './support/services';

const TE3 = 'rosetta/text-embedding-3-small';
const GEM = 'rosetta/gemini-embedding-001';
const PRICE = { [TE3]: 0.02e-6, [GEM]: 0.15e-6 };

/**
 * Embeddings end to end: the official `openai` SDK (`embeddings.create`, base64 by default, and
 * floats) and `@google/genai` (`models.embedContent`, which calls `:batchEmbedContents`) against
 * the gateway, with the simulator behind it serving each embedding model over its own protocol
 * and over the other (the `*-mirror` providers). The vectors the SDKs decode are the simulator's,
 * bit for bit; every request that reached an upstream has its ledger row and its cost.
 */
describe('embeddings through the official SDKs, to both upstream protocols', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess;
  let key: string;
  let dir: string;
  let openai: OpenAI;
  let ai: GoogleGenAI;

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'rosetta-embeddings-'));
    const providers = join(dir, 'providers.yaml');
    // Each catalog embedding model also served over the other protocol, for the cross-protocol paths.
    writeFileSync(
      providers,
      `providers:
  - slug: gemini-mirror
    protocol: gemini
    base_url: ${sim.url}
    api_key_env: MIRROR_KEY
    endpoints:
      - { model: ${TE3}, kind: embedding, upstream_model: text-embedding-3-small, context_length: 8191, dimensions: 1536, custom_dimensions: true, pricing: { prompt: "0.00000002", completion: "0" } }
  - slug: openai-mirror
    protocol: openai
    base_url: ${sim.url}/v1
    api_key_env: MIRROR_KEY
    endpoints:
      - { model: ${GEM}, upstream_model: gemini-embedding-001, context_length: 2048, dimensions: 3072, custom_dimensions: true, pricing: { prompt: "0.00000015", completion: "0" } }
`,
    );
    gateway = await startGateway({
      DATABASE_URL: db.url,
      PROVIDERS_FILE: providers,
      MIRROR_KEY: 'mirror-operator-key-000',
      OPENAI_BASE_URL: `${sim.url}/v1`,
      OPENAI_API_KEY: 'sk-openai-operator-000000',
      GEMINI_BASE_URL: sim.url,
      GEMINI_API_KEY: 'gemini-operator-000000',
      ANTHROPIC_BASE_URL: sim.url,
      ANTHROPIC_API_KEY: 'sk-ant-operator-000000',
    });
    key = (await createKey(gateway, 'enterprise')).key;
    openai = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gateway.url, fetch: (input, init) => fetch(input, init) } });
  });

  afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => sim.reset());

  const openaiVector = (input: string, dimensions?: number) => simulatedEmbedding({ model: 'text-embedding-3-small', input, dimensions, flavour: 'openai' });
  const geminiVector = (model: string, input: string, extra: { dimensions?: number; taskType?: string; title?: string } = {}) => simulatedEmbedding({ model, input, flavour: 'gemini', ...extra });
  const ledger = async (requestId: string | null) => (await adminCall(gateway, 'GET', `/admin/requests/${requestId}`)).body;
  /** The routing fields ride in the body; the SDK merges `extraBody` into it (its own keys still go as the SDK sends them). */
  const onlyVia = (provider: string) => ({ baseUrl: gateway.url, extraBody: { provider_only: [provider] } });
  const estimated = (...texts: string[]) => estimateEmbeddingTokens(texts.map((text) => ({ type: 'text' as const, text }))).total;

  describe('the openai SDK', () => {
    it('decodes its default base64 answer to the simulator\'s vectors, from an OpenAI upstream, with the ledger row and cost', async () => {
      const { data: res, response } = await openai.embeddings.create({ model: TE3, input: ['The food was delicious.', 'The waiter was friendly.'], provider_order: ['openai'] } as OpenAI.EmbeddingCreateParams).withResponse();
      expect(res.data.map((d) => [d.index, d.embedding])).toEqual([
        [0, openaiVector('The food was delicious.')],
        [1, openaiVector('The waiter was friendly.')],
      ]);
      expect(res.model).toBe(TE3);
      // The simulator counts a quarter token per character: 6 + 6.
      expect(res.usage).toEqual({ prompt_tokens: 12, total_tokens: 12, cost: 12 * PRICE[TE3] });
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
      expect(res.usage).toEqual({ prompt_tokens: estimated('Shorter, please.'), total_tokens: estimated('Shorter, please.'), cost: estimated('Shorter, please.') * PRICE[TE3] });
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

  describe('metered, limited and budgeted like chat', () => {
    const geminiEmbed = (apiKey: string, text: string) =>
      new GoogleGenAI({ apiKey, httpOptions: { baseUrl: gateway.url, fetch: (input, init) => fetch(input, init) } }).models.embedContent({ model: GEM, contents: [text] });
    const openaiEmbed = (apiKey: string, text: string) => new OpenAI({ apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 }).embeddings.create({ model: GEM, input: text });
    const refusal = async (call: Promise<unknown>): Promise<{ status?: number; body: any }> => {
      try {
        await call;
      } catch (error) {
        if (error instanceof OpenAI.APIError) return { status: error.status, body: error.error };
        if (error instanceof ApiError) return { status: error.status, body: JSON.parse(error.message.slice(error.message.indexOf('{'))) };
        throw error;
      }
      throw new Error('expected a refusal');
    };
    const long = 'words to count against the limit '.repeat(20);

    it('refuses past the key\'s tokens per minute with a 429 in each dialect, having reserved the estimated input', async () => {
      const { key: limited } = await createKey(gateway, 'enterprise', { rpm: null, tpm: 50 });
      const openaiRefusal = await refusal(openaiEmbed(limited, long));
      expect(openaiRefusal.status).toBe(429);
      expect(openaiRefusal.body).toMatchObject({ type: 'rate_limit_error' });
      const geminiRefusal = await refusal(geminiEmbed(limited, long));
      expect(geminiRefusal).toMatchObject({ status: 429, body: { error: { code: 429, status: 'RESOURCE_EXHAUSTED', type: 'rate_limit_error' } } });
      // A small one fits, and is settled to what it really used.
      const ok = await new OpenAI({ apiKey: limited, baseURL: `${gateway.url}/v1`, maxRetries: 0 }).embeddings.create({ model: TE3, input: 'tiny', provider_order: ['openai'] } as OpenAI.EmbeddingCreateParams).withResponse();
      expect(ok.response.headers.get('x-ratelimit-limit-tokens')).toBe('50');
      expect(Number(ok.response.headers.get('x-ratelimit-remaining-tokens'))).toBeLessThan(50);
      expect(sim.requests()).toHaveLength(1);
    });

    it('refuses what a dollar budget cannot cover with a 402 in each dialect, naming the budget', async () => {
      const created = await adminCall(gateway, 'POST', '/admin/keys', { name: 'pennies', plan: 'enterprise', budget_usd: 0.0000001, budget_period: 'day' });
      const openaiRefusal = await refusal(openaiEmbed(created.body.key, long));
      expect(openaiRefusal).toMatchObject({ status: 402, body: { type: 'budget_exceeded', message: expect.stringContaining("key 'pennies'") } });
      const geminiRefusal = await refusal(geminiEmbed(created.body.key, long));
      expect(geminiRefusal).toMatchObject({ status: 402, body: { error: { code: 402, type: 'budget_exceeded' } } });
      expect(sim.requests()).toEqual([]);
    });

    it('keeps a key to its allow-list: 403 naming the model in each dialect, and lists only what it may call', async () => {
      const { key: chatOnly } = await createKey(gateway, 'enterprise', { models: ['rosetta/gpt-4o-mini', TE3] });
      expect(await refusal(openaiEmbed(chatOnly, 'x'))).toMatchObject({ status: 403, body: { type: 'permission_error', param: 'model', message: expect.stringContaining(GEM) } });
      expect(await refusal(geminiEmbed(chatOnly, 'x'))).toMatchObject({ status: 403, body: { error: { code: 403, status: 'PERMISSION_DENIED' } } });
      const listed = await new OpenAI({ apiKey: chatOnly, baseURL: `${gateway.url}/v1` }).models.list();
      expect(listed.data.map((m) => m.id).sort()).toEqual(['rosetta/auto', 'rosetta/gpt-4o-mini', TE3]);
    });

    it('falls back to the next provider when the first fails, and ledgers one row with every attempt', async () => {
      sim.script({ match: 'flaky upstream', model: 'text-embedding-3-small', reply: { error: { status: 503, message: 'overloaded' } }, times: 2 });
      const { data: res, response } = await openai.embeddings.create({ model: TE3, input: 'a flaky upstream', encoding_format: 'float', provider_order: ['openai', 'gemini-mirror'] } as OpenAI.EmbeddingCreateParams).withResponse();
      expect(res.data[0]!.embedding).toEqual(geminiVector('text-embedding-3-small', 'a flaky upstream'));
      expect([response.headers.get('x-rosetta-provider'), response.headers.get('x-rosetta-attempts')]).toEqual(['gemini-mirror', '3']);
      expect(sim.requests().map((r) => r.protocol)).toEqual(['openai', 'openai', 'gemini']);
      const id = response.headers.get('x-request-id')!;
      expect(await ledger(id)).toMatchObject({ provider: 'gemini-mirror', attempts: 3, status: 200, served_model: TE3 });
      expect(await query(db.url, 'SELECT count(*)::int AS n FROM request_log WHERE request_id = $1', [id])).toEqual([{ n: 1 }]);
    });

    it('ledgers a request whose every upstream failed, with the upstream error in the caller\'s envelope', async () => {
      sim.script({ match: 'always failing', reply: { error: { status: 500, message: 'boom' } } });
      const res = await fetch(`${gateway.url}/v1beta/models/${GEM}:embedContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ content: { parts: [{ text: 'always failing' }] }, provider_allow_fallbacks: false, provider_order: ['gemini'] }),
      });
      expect(res.status).toBe(502);
      expect(await res.json()).toMatchObject({ error: { code: 502, status: 'UNAVAILABLE', type: 'upstream_error', message: 'Upstream service error: boom' } });
      expect(await ledger(res.headers.get('x-request-id'))).toMatchObject({ status: 502, error_type: 'upstream_error', provider: 'gemini', cost_usd: '0' });
    });
  });

  describe('hostile and mistaken requests', () => {
    const post = async (path: string, body: unknown, headers: Record<string, string>) => {
      const res = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as any };
    };
    const bearer = () => ({ authorization: `Bearer ${key}` });
    const goog = () => ({ 'x-goog-api-key': key });

    it.each([
      [{ model: TE3, input: '' }, 'input', "Invalid 'input': must not be an empty string"],
      [{ model: TE3 }, 'input', "Missing required field 'input'"],
      [{ input: 'x' }, 'model', "Missing required field 'model'"],
      [{ model: TE3, input: 'x', dimensions: -1 }, 'dimensions', "Invalid 'dimensions': must not be less than 1"],
      [{ model: TE3, input: 'x', encoding_format: 'binary' }, 'encoding_format', "Invalid 'encoding_format': must be one of float, base64"],
      [{ model: TE3, input: 'x', dimensions: 4096 }, 'dimensions', "No endpoint of 'rosetta/text-embedding-3-small' satisfies dimensions / outputDimensionality (4096 requested; it gives 1536, or fewer)"],
      [{ model: GEM, input: [[1, 2, 3]], provider_only: ['gemini'] }, 'input', "No endpoint of 'rosetta/gemini-embedding-001' satisfies token-id input (its providers take text only)"],
      [{ model: 'rosetta/gpt-4o-mini', input: 'x' }, 'model', "'rosetta/gpt-4o-mini' is not an embedding model: name one such as rosetta/text-embedding-3-small, rosetta/gemini-embedding-001"],
      [{ model: 'rosetta/auto', input: 'x' }, 'model', "'rosetta/auto' is not an embedding model (rosetta/auto routes chat requests): name one such as rosetta/text-embedding-3-small, rosetta/gemini-embedding-001"],
      [{ model: 'text-embedding-3-small', input: 'x' }, 'model', "invalid model 'text-embedding-3-small': only rosetta/* models are supported"],
    ])('POST /v1/embeddings %j → 400 naming the field', async (body, param, message) => {
      expect(await post('/v1/embeddings', body, bearer())).toEqual({ status: 400, body: { error: { type: 'invalid_request_error', code: null, param, message }, request_id: expect.stringMatching(/^req_/) } });
    });

    it.each([
      [':embedContent', { content: { parts: [{ text: 'x' }] }, taskType: 'SEARCH' }, expect.stringContaining("Invalid 'taskType': must be one of")],
      [':embedContent', { content: { parts: [{ inline_data: { mime_type: 'image/png', data: 'AA==' } }] } }, "Invalid 'content.parts[0]': must be a text part ({text}): only text can be embedded"],
      [':batchEmbedContents', { requests: [{ model: 'models/rosetta/text-embedding-3-small', content: { parts: [{ text: 'x' }] } }] }, `Invalid 'requests[0].model': must name the model in the request path, 'models/${GEM}'`],
      [':batchEmbedContents', { requests: Array.from({ length: 101 }, () => ({ content: { parts: [{ text: 'x' }] } })) }, "Invalid 'requests': at most 100 requests can be in one batch, got 101"],
    ])('POST /v1beta/models/…%s with a bad body → 400 in Google\'s envelope', async (method, body, message) => {
      expect(await post(`/v1beta/models/${GEM}${method}`, body, goog())).toMatchObject({ status: 400, body: { error: { code: 400, status: 'INVALID_ARGUMENT', type: 'invalid_request_error', message } } });
    });

    it('refuses chat with an embedding model, and embeddings with a chat model, in every dialect', async () => {
      const chat = await post('/v1/chat/completions', { model: TE3, messages: [{ role: 'user', content: 'hi' }] }, bearer());
      expect(chat).toMatchObject({ status: 400, body: { error: { param: 'model', message: `'${TE3}' is an embedding model: call it through POST /v1/embeddings (or :embedContent), not a chat route` } } });
      const messages = await post('/v1/messages', { model: GEM, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, { 'x-api-key': key, 'anthropic-version': '2023-06-01' });
      expect(messages).toMatchObject({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error' } } });
      const generate = await post(`/v1beta/models/${GEM}:generateContent`, { contents: [{ parts: [{ text: 'hi' }] }] }, goog());
      expect(generate).toMatchObject({ status: 400, body: { error: { code: 400, message: expect.stringContaining('is an embedding model') } } });
      const embed = await post('/v1beta/models/rosetta/gemini-2.5-flash:embedContent', { content: { parts: [{ text: 'hi' }] } }, goog());
      expect(embed).toMatchObject({ status: 400, body: { error: { code: 400, message: expect.stringContaining("'rosetta/gemini-2.5-flash' is not an embedding model") } } });
      expect(sim.requests()).toEqual([]);
    });

    it('lists embedding models: GET /v1/models, and embedContent in Gemini\'s list', async () => {
      const listed = (await openai.models.list()).data.map((m) => m.id);
      expect(listed).toEqual(expect.arrayContaining([TE3, GEM]));
      const gemini = (await (await fetch(`${gateway.url}/v1beta/models/${GEM}`, { headers: goog() })).json()) as any;
      expect(gemini).toMatchObject({ name: `models/${GEM}`, inputTokenLimit: 2048, outputTokenLimit: 1, supportedGenerationMethods: ['embedContent', 'countTokens'] });
      const record = (await (await fetch(`${gateway.url}/v1/models/${TE3}`, { headers: bearer() })).json()) as any;
      expect(record).toMatchObject({ kind: 'embedding', architecture: { modality: 'text->embeddings' }, pricing: { prompt_cost: '0.00000002', completion_cost: '0' } });
      expect(record.providers.map((p: any) => [p.name, p.dimensions, p.custom_dimensions]).sort()).toEqual([['gemini-mirror', 1536, true], ['openai', 1536, true]]);
      const counted = await post(`/v1beta/models/${GEM}:countTokens`, { contents: [{ parts: [{ text: 'count these words' }] }] }, goog());
      expect(counted).toEqual({ status: 200, body: { totalTokens: expect.any(Number) } });
      const mirror = (await adminCall(gateway, 'GET', '/admin/providers')).body.find((p: any) => p.slug === 'gemini-mirror');
      expect(mirror.endpoints).toEqual([{ model: TE3, kind: 'embedding', upstream_model: 'text-embedding-3-small', disabled: false }]);
    });

    it('refuses, at start, an embedding model served over Anthropic', async () => {
      const file = join(dir, 'anthropic-embeddings.yaml');
      writeFileSync(file, `providers:\n  - slug: claude-embed\n    protocol: anthropic\n    base_url: ${sim.url}\n    api_key_env: MIRROR_KEY\n    endpoints:\n      - { model: rosetta/claude-embed, kind: embedding, upstream_model: x, context_length: 100, pricing: { prompt: "0", completion: "0" } }\n`);
      await expect(startGateway({ DATABASE_URL: db.url, PROVIDERS_FILE: file, MIRROR_KEY: 'k-000000' })).rejects.toThrow(
        "Endpoint 'rosetta/claude-embed' of provider 'claude-embed': the 'anthropic' protocol has no embeddings, so it cannot serve embedding model 'rosetta/claude-embed'",
      );
      const viaAdmin = await adminCall(gateway, 'PUT', '/admin/providers/claude-embed', { slug: 'claude-embed', protocol: 'anthropic', base_url: sim.url, api_key_env: 'MIRROR_KEY', endpoints: [{ model: TE3, upstream_model: 'x', context_length: 100, pricing: { prompt: '0', completion: '0' } }] });
      expect(viaAdmin).toMatchObject({ status: 400, body: { error: { param: 'protocol', message: expect.stringContaining("cannot serve embedding model 'rosetta/text-embedding-3-small'") } } });
    });
  });
});
