import { ApiError, GoogleGenAI } from '@google/genai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { RunningSimulator } from '../apps/simulator/src';
import { GEM, geminiVector, ledger as ledgerOf, startEmbeddingsStack, TE3, type EmbeddingsStack } from './support/embeddings-stack';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { query } from './support/services';

/**
 * Embeddings held to everything chat is: tokens per minute (429), dollar budgets (402) and
 * allow-lists (403) in both dialects' envelopes, fallback across providers and protocols with one
 * ledger row, hostile and mistaken bodies (400 naming the field), kinds that do not mix, the model
 * lists, and an embedding model on Anthropic refused.
 */
describe('embeddings: limits, budgets, fallbacks and refusals', () => {
  let stack: EmbeddingsStack;
  let sim: RunningSimulator;
  let gateway: GatewayProcess;
  let key: string;
  let openai: OpenAI;

  beforeAll(async () => {
    stack = await startEmbeddingsStack();
    ({ sim, gateway, key } = stack);
    openai = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  beforeEach(() => sim.reset());

  const ledger = (requestId: string | null) => ledgerOf(gateway, requestId);

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
      // Requests per minute count embeddings like any request.
      const { key: once } = await createKey(gateway, 'enterprise', { rpm: 1, tpm: null });
      await openaiEmbed(once, 'first');
      expect(await refusal(openaiEmbed(once, 'second'))).toMatchObject({ status: 429, body: { type: 'rate_limit_error' } });
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
      expect(await query(stack.db.url, 'SELECT count(*)::int AS n FROM request_log WHERE request_id = $1', [id])).toEqual([{ n: 1 }]);
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
      [
        { model: 'text-embedding-3-small', input: 'x' },
        'model',
        "invalid model 'text-embedding-3-small': only rosetta/* models are supported; did you mean 'rosetta/text-embedding-3-small'? (an operator can map a client's own model ids with MODEL_ALIASES)",
      ],
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
      // Each endpoint also carries its limits, prices and live health (the dashboard's providers page).
      expect(mirror.endpoints).toEqual([expect.objectContaining({ model: TE3, kind: 'embedding', upstream_model: 'text-embedding-3-small', disabled: false, health: expect.objectContaining({ status: 0 }) })]);
    });

    it('refuses, at start, an embedding model served over Anthropic', async () => {
      const file = join(stack.dir, 'anthropic-embeddings.yaml');
      writeFileSync(file, `providers:\n  - slug: claude-embed\n    protocol: anthropic\n    base_url: ${sim.url}\n    api_key_env: MIRROR_KEY\n    endpoints:\n      - { model: rosetta/claude-embed, kind: embedding, upstream_model: x, context_length: 100, pricing: { prompt: "0", completion: "0" } }\n`);
      await expect(startGateway({ DATABASE_URL: stack.db.url, PROVIDERS_FILE: file, MIRROR_KEY: 'k-000000' })).rejects.toThrow(
        "Endpoint 'rosetta/claude-embed' of provider 'claude-embed': the 'anthropic' protocol has no embeddings, so it cannot serve embedding model 'rosetta/claude-embed'",
      );
      const viaAdmin = await adminCall(gateway, 'PUT', '/admin/providers/claude-embed', { slug: 'claude-embed', protocol: 'anthropic', base_url: sim.url, api_key_env: 'MIRROR_KEY', endpoints: [{ model: TE3, upstream_model: 'x', context_length: 100, pricing: { prompt: '0', completion: '0' } }] });
      expect(viaAdmin).toMatchObject({ status: 400, body: { error: { param: 'protocol', message: expect.stringContaining("cannot serve embedding model 'rosetta/text-embedding-3-small'") } } });
    });

    it("keeps a model's kind: metadata edits leave it, a change of kind is refused", async () => {
      const renamed = await adminCall(gateway, 'PUT', `/admin/models/${TE3}`, { display_name: 'Small embeddings', author: 'openai' });
      expect(renamed.status).toBe(200);
      expect(((await (await fetch(`${gateway.url}/v1/models/${TE3}`, { headers: bearer() })).json()) as any).kind).toBe('embedding');
      const flipped = await adminCall(gateway, 'PUT', `/admin/models/${TE3}`, { display_name: 'x', author: 'openai', kind: 'chat' });
      expect(flipped).toMatchObject({ status: 400, body: { error: { param: 'kind', message: `'${TE3}' is an embedding model; a model's kind cannot change` } } });
    });
  });
});
