import fc from 'fast-check';
import { join } from 'node:path';
import { hostileBody, SEEDS, toJsonText, type Dialect, type Json } from '../libs/dialects/src/__fixtures__/fuzz-bodies';
import { hostileEmbeddingBody } from '../libs/dialects/src/__fixtures__/fuzz-embedding-bodies';
import { MAX_JSON_DEPTH } from '../libs/dialects/src/common/json-nesting';
import { readErrorEnvelope } from './support/dialect-wire';
import { auth, bodyBytes, bodyForm, extraHeaders, frame, framing, GEMINI_METHODS, modelSegment, query, sendRaw, type Auth, type Call, type Reply } from './support/fuzz-requests';
import { adminCall, TEST_ADMIN_TOKEN } from './support/gateway-process';
import { answerBeforeUpload } from './support/raw-http';
import { OPERATOR_KEYS, startStack, type Stack } from './support/stack';

/**
 * The HTTP entry under fuzzing (issue 12): random and mutated bodies, paths, query strings,
 * content encodings and charsets, and nesting, sent raw (node:http, so paths go out exactly as
 * written) to every client route of the four dialects, embeddings included. Every answer: no 5xx,
 * an x-request-id, errors in the route's dialect envelope with that id as `request_id`, no stack
 * trace, no operator secret. Afterwards every provider's status is what it was: a bad request is never
 * an endpoint failure. A fixed seed keeps the run reproducible and bounded.
 */
const RUNS = { seed: 1212, numRuns: 400 };
const ROOT = join(__dirname, '..');
const SECRETS = [...Object.values(OPERATOR_KEYS), TEST_ADMIN_TOKEN];
let stack: Stack;

const send = (call: Call): Promise<Reply> => sendRaw(stack.gateway.port, call);

/** The dialect whose envelope an error on this path must use (ARCHITECTURE §4.6), by its raw path (that of an absolute-form target). */
function dialectOf(target: string): Dialect {
  const path = /^[a-z]+:/i.test(target) ? new URL(target).pathname : target;
  if (path.startsWith('/v1beta')) return 'gemini';
  if (path.startsWith('/v1/responses')) return 'openai-responses';
  if (path.startsWith('/v1/messages')) return 'anthropic';
  return 'openai';
}

/** What is wrong with the answer to `call`, or undefined. */
function misbehaviour(call: Call, reply: Reply): string | undefined {
  const requestId = reply.headers['x-request-id'];
  if (reply.status >= 500) return `answered ${reply.status}`;
  if (typeof requestId !== 'string' || requestId === '') return 'no x-request-id';
  if (reply.status >= 400) {
    const envelope = readErrorEnvelope(dialectOf(call.path), reply.status, reply.body, requestId);
    if (typeof envelope === 'string') return envelope;
  }
  const everything = `${JSON.stringify(reply.headers)}\n${reply.body}`;
  if (/\bat (?:async )?[\w$.<>[\] ]+ \(|\n\s+at \S+:\d+:\d+/.test(everything)) return 'a stack trace in the answer';
  if (everything.includes(ROOT) || everything.includes('node_modules')) return 'a file path in the answer';
  if (SECRETS.some((secret) => everything.includes(secret))) return 'an operator secret in the answer';
  return undefined;
}

async function expectWellBehaved(call: Call): Promise<Reply> {
  const reply = await send(call);
  const problem = misbehaviour(call, reply);
  if (problem) {
    const sent = `${call.method} ${call.path} ${JSON.stringify(call.headers)}\n${call.body?.toString('utf8').slice(0, 500) ?? ''}`;
    throw new Error(`${problem}\nrequest: ${sent}\nanswer: ${reply.status} ${reply.body.slice(0, 500)}`);
  }
  return reply;
}

/** Puts the key where the dialect's clients do (or a wrong one, or none); returns a `key=` query part for Gemini's `?key=`. */
function authenticate(dialect: Dialect, how: Auth, headers: Record<string, string>): string {
  const key = how === 'wrong' ? 'rsk_not-a-real-key' : stack.key;
  if (how === 'none') return '';
  if (how === 'query' && dialect === 'gemini') return `key=${encodeURIComponent(key)}`;
  if (dialect === 'openai' || dialect === 'openai-responses') headers['authorization'] = `Bearer ${key}`;
  else if (dialect === 'anthropic') Object.assign(headers, { 'x-api-key': key, 'anthropic-version': '2023-06-01' });
  else headers['x-goog-api-key'] = key;
  return '';
}

/** A POST route of a dialect: its path given a model segment and a method, and which bodies it takes. */
interface PostRoute {
  name: string;
  dialect: Dialect;
  bodies: Dialect;
  path(model: string, method: string): string;
  /** What the route needs beyond the dialect's body: /v1/route takes a Gemini body's model in the body. */
  prepare?(body: Json): Json;
  /** Bodies other than the dialect's chat bodies (the embeddings routes), and the models they name. */
  body?: fc.Arbitrary<Json>;
  model?: fc.Arbitrary<string>;
}

const embeddingModel = fc.oneof({ weight: 3, arbitrary: fc.constantFrom('rosetta/gemini-embedding-001', 'rosetta/text-embedding-3-small') }, { weight: 1, arbitrary: modelSegment });

const withModel = (body: Json): Json =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && !('model' in body) ? { model: 'rosetta/gemini-2.5-flash', ...body } : body;

const POST_ROUTES: readonly PostRoute[] = [
  { name: 'POST /v1/chat/completions', dialect: 'openai', bodies: 'openai', path: () => '/v1/chat/completions' },
  { name: 'POST /v1/messages', dialect: 'anthropic', bodies: 'anthropic', path: () => '/v1/messages' },
  { name: 'POST /v1/responses', dialect: 'openai-responses', bodies: 'openai-responses', path: () => '/v1/responses' },
  { name: 'POST /v1/messages/count_tokens', dialect: 'anthropic', bodies: 'anthropic', path: () => '/v1/messages/count_tokens' },
  { name: 'POST /v1beta/models/{model}:{method}', dialect: 'gemini', bodies: 'gemini', path: (model, method) => `/v1beta/models/${model}${method}` },
  { name: 'POST /v1/route (Gemini bodies)', dialect: 'openai', bodies: 'gemini', path: () => '/v1/route', prepare: withModel },
  { name: 'POST /v1/route (Anthropic bodies)', dialect: 'openai', bodies: 'anthropic', path: () => '/v1/route' },
  { name: 'POST /v1/route (OpenAI bodies)', dialect: 'openai', bodies: 'openai', path: () => '/v1/route' },
  { name: 'POST /v1/embeddings', dialect: 'openai', bodies: 'openai', body: hostileEmbeddingBody('openai-embeddings'), path: () => '/v1/embeddings' },
  { name: 'POST /v1beta/models/{model}:embedContent', dialect: 'gemini', bodies: 'gemini', body: hostileEmbeddingBody('gemini-embed'), model: embeddingModel, path: (model) => `/v1beta/models/${model}:embedContent` },
  { name: 'POST /v1beta/models/{model}:batchEmbedContents', dialect: 'gemini', bodies: 'gemini', body: hostileEmbeddingBody('gemini-batch-embed'), model: embeddingModel, path: (model) => `/v1beta/models/${model}:batchEmbedContents` },
];

const GET_ROUTES: ReadonlyArray<{ name: string; dialect: Dialect; path(model: string): string }> = [
  { name: 'GET /v1/models/{id}', dialect: 'openai', path: (model) => `/v1/models/${model}` },
  { name: 'GET /v1beta/models/{model}', dialect: 'gemini', path: (model) => `/v1beta/models/${model}` },
  { name: 'GET /v1/responses/{id}[/input_items]', dialect: 'openai-responses', path: (model) => `/v1/responses/${model}${model.length % 2 ? '/input_items' : ''}` },
  { name: 'GET /v1/models, /v1beta/models, /v1/key', dialect: 'openai', path: (model) => ['/v1/models', '/v1beta/models', '/v1/key'][model.length % 3]! },
];

// ---- health ---------------------------------------------------------------------------------

/** Every provider's status on every listed model, as `GET /v1/models/{id}` reports it. */
async function providerStatuses(): Promise<Record<string, number>> {
  const headers = { authorization: `Bearer ${stack.key}` };
  const list = JSON.parse((await send({ method: 'GET', path: '/v1/models', headers })).body) as { data: Array<{ id: string }> };
  const statuses: Record<string, number> = {};
  for (const { id } of list.data) {
    const record = JSON.parse((await send({ method: 'GET', path: `/v1/models/${id}`, headers })).body) as { providers?: Array<{ name: string; status: number }> };
    for (const provider of record.providers ?? []) statuses[`${id} @ ${provider.name}`] = provider.status;
  }
  return statuses;
}

describe('fuzz: the HTTP entry of all four dialects', () => {
  let before: Record<string, number>;

  beforeAll(async () => {
    // Two failures open a circuit: a bad request wrongly counted against an endpoint shows at once.
    stack = await startStack({ CIRCUIT_BREAKER_FAILURES: '2' });
    before = await providerStatuses();
    expect(Object.keys(before).length).toBeGreaterThan(3);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it.each(POST_ROUTES)('$name: random and mutated requests', async (route) => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ body: route.body ?? hostileBody(route.bodies), form: bodyForm, cut: fc.nat(), framing, auth, model: route.model ?? modelSegment, method: GEMINI_METHODS, query, extra: extraHeaders }),
        async (input) => {
          const headers: Record<string, string> = { ...input.extra };
          if (route.bodies === 'anthropic' && route.dialect === 'openai') headers['anthropic-version'] = '2023-06-01';
          const keyParam = authenticate(route.dialect, input.auth, headers);
          const search = [input.query, keyParam].filter(Boolean).join('&');
          const call: Call = { method: 'POST', path: `${route.path(input.model, input.method)}${search ? `?${search}` : ''}`, headers };
          await expectWellBehaved(frame(call, bodyBytes(route.prepare ? route.prepare(input.body) : input.body, input.form, input.cut), input.framing));
        },
      ),
      RUNS,
    );
  });

  it.each(GET_ROUTES)('$name: random paths and query strings', async (route) => {
    await fc.assert(
      fc.asyncProperty(fc.record({ auth, model: modelSegment, query, extra: extraHeaders }), async (input) => {
        const headers: Record<string, string> = { ...input.extra };
        const keyParam = authenticate(route.dialect, input.auth, headers);
        const search = [input.query, keyParam].filter(Boolean).join('&');
        await expectWellBehaved({ method: 'GET', path: `${route.path(input.model)}${search ? `?${search}` : ''}`, headers });
      }),
      { ...RUNS, numRuns: 60 },
    );
  });

  it('answers a malformed %-escape in a path with a 400 naming the path, on every route that decodes one', async () => {
    const gemini = { 'x-goog-api-key': stack.key, 'content-type': 'application/json' };
    const seed = Buffer.from(toJsonText(SEEDS.gemini[0]!));
    for (const path of ['/v1beta/models/%ZZ:generateContent', '/v1beta/models/%ZZ:streamGenerateContent', '/v1beta/models/%ZZ:countTokens', '/v1beta/models/rosetta/%E0%A4%A:generateContent']) {
      const reply = await expectWellBehaved({ method: 'POST', path, headers: gemini, body: seed });
      expect([reply.status, JSON.parse(reply.body).error.message]).toEqual([400, `Malformed percent-encoding in the request path '${path}'`]);
    }
    for (const path of ['/v1beta/models/%ZZ', '/v1/models/%ZZ']) {
      const reply = await expectWellBehaved({ method: 'GET', path, headers: { ...gemini, authorization: `Bearer ${stack.key}` } });
      expect([reply.status, JSON.parse(reply.body).error.message]).toEqual([400, `Malformed percent-encoding in the request path '${path}'`]);
    }
  });

  it('streams SSE for alt=sse, the JSON array without alt or with alt=json, and refuses any other alt', async () => {
    const gemini = { 'x-goog-api-key': stack.key, 'content-type': 'application/json' };
    const seed = Buffer.from(toJsonText(SEEDS.gemini[0]!));
    const stream = '/v1beta/models/rosetta/gemini-2.5-flash:streamGenerateContent';
    expect((await expectWellBehaved({ method: 'POST', path: `${stream}?alt=sse`, headers: gemini, body: seed })).headers['content-type']).toMatch(/^text\/event-stream/);
    for (const search of ['', '?alt=json']) {
      const reply = await expectWellBehaved({ method: 'POST', path: `${stream}${search}`, headers: gemini, body: seed });
      expect([reply.status, reply.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
    }
    for (const search of ['?alt=SSE', '?alt=proto', '?alt=sse&alt=sse']) {
      const reply = await expectWellBehaved({ method: 'POST', path: `${stream}${search}`, headers: gemini, body: seed });
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body).error.message).toMatch(/^Invalid query parameter 'alt': must be 'sse' or 'json' \(or absent\)/);
    }
  });

  it(`refuses bodies nesting deeper than ${MAX_JSON_DEPTH} levels on every route, however deep, and takes them up to it`, async () => {
    const gemini = { 'x-goog-api-key': stack.key };
    const wrap = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const routes: Array<[string, Record<string, string>]> = [
      ['/v1/chat/completions', { authorization: `Bearer ${stack.key}` }],
      ['/v1/messages', { 'x-api-key': stack.key }],
      ['/v1/messages/count_tokens', { 'x-api-key': stack.key }],
      ['/v1beta/models/rosetta/gemini-2.5-flash:generateContent', gemini],
      ['/v1beta/models/rosetta/gemini-2.5-flash:countTokens', gemini],
      ['/v1beta/models/rosetta/gemini-embedding-001:batchEmbedContents', gemini],
      ['/v1/embeddings', { authorization: `Bearer ${stack.key}` }],
      ['/v1/route', { authorization: `Bearer ${stack.key}` }],
      ['/admin/keys', { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }],
      ['/admin/webhooks', { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }],
    ];
    for (const [path, headers] of routes) {
      // One level inside the limit: not refused for its nesting (whatever else is wrong with it).
      const inside = await expectWellBehaved({ method: 'POST', path, headers, body: Buffer.from(`{"metadata":${wrap(MAX_JSON_DEPTH - 1)}}`) });
      expect(inside.body).not.toContain('nests deeper');
      for (const levels of [MAX_JSON_DEPTH, 100_000]) {
        const reply = await expectWellBehaved({ method: 'POST', path, headers, body: Buffer.from(`{"metadata":${wrap(levels)}}`) });
        expect([reply.status, JSON.parse(reply.body).error.message]).toEqual([400, `Request body nests deeper than ${MAX_JSON_DEPTH} levels`]);
      }
    }
  });

  it('refuses NUL and lone surrogates in every admin field and parameter with a 400 (or 404) naming it, and stores nothing', async () => {
    const headers = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const call = (method: string, path: string, body?: unknown): Promise<Reply> =>
      expectWellBehaved({ method: method as Call['method'], path, headers, body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)) });
    const key = JSON.parse((await call('POST', '/admin/keys', { name: 'fuzz-admin-key', plan: 'pro' })).body) as { id: string };
    const team = JSON.parse((await call('POST', '/admin/teams', { name: 'fuzz-admin' })).body) as { id: string };
    const endpoint = { model: 'rosetta/fuzz-model', upstream_model: 'gpt-4o-mini', context_length: 8000, max_completion_tokens: 100, pricing: { prompt: '0', completion: '0' } };
    const provider = { protocol: 'openai', base_url: `${stack.sim.url}/v1`, api_key_env: 'OPENAI_API_KEY', data_collection: 'allow', endpoints: [endpoint] };
    const model = { display_name: 'Fuzz', author: 'fuzz', description: 'd', created_at: '2025-01-01T00:00:00Z', kind: 'chat' };
    /** Each route that stores text, a valid body for it, and every text field in it (a path into the body, and the param the 400 names). */
    const writes: Array<{ method: string; path: string; body: Record<string, unknown>; fields: Array<[string[], string]> }> = [
      { method: 'POST', path: '/admin/keys', body: { name: 'k', plan: 'pro' }, fields: [[['name'], 'name'], [['plan'], 'plan'], [['expires_at'], 'expires_at'], [['team_id'], 'team_id'], [['budget_period'], 'budget_period'], [['models'], 'models']] },
      { method: 'PATCH', path: `/admin/keys/${key.id}`, body: {}, fields: [[['name'], 'name'], [['plan'], 'plan'], [['expires_at'], 'expires_at'], [['team_id'], 'team_id'], [['models'], 'models']] },
      { method: 'POST', path: '/admin/teams', body: { name: 't' }, fields: [[['name'], 'name'], [['budget_period'], 'budget_period']] },
      { method: 'PATCH', path: `/admin/teams/${team.id}`, body: {}, fields: [[['name'], 'name'], [['budget_period'], 'budget_period']] },
      {
        method: 'PUT', path: '/admin/providers/fuzz-admin', body: provider,
        fields: [[['protocol'], 'protocol'], [['base_url'], 'base_url'], [['api_key_env'], 'api_key_env'], [['api_key'], 'api_key'], [['data_collection'], 'data_collection'],
          ...(['model', 'upstream_model', 'kind', 'quantization'].map((f) => [['endpoints', '0', f], `endpoints[0].${f}`]) as Array<[string[], string]>),
          [['endpoints', '0', 'pricing', 'prompt'], 'endpoints[0].pricing.prompt']],
      },
      { method: 'PUT', path: '/admin/models/rosetta/fuzz-admin', body: model, fields: [[['display_name'], 'display_name'], [['author'], 'author'], [['description'], 'description'], [['created_at'], 'created_at'], [['kind'], 'kind']] },
      { method: 'POST', path: '/admin/webhooks', body: { url: 'https://hooks.example.com/fuzz', events: ['spend.daily'] }, fields: [[['url'], 'url'], [['events', '0'], 'events'], [['secret'], 'secret']] },
    ];
    const set = (body: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> => {
      const copy = structuredClone(body);
      let at: any = copy;
      for (const part of path.slice(0, -1)) at = at[part];
      at[path.at(-1)!] = path.at(-1) === 'models' ? [value] : value;
      return copy;
    };
    await fc.assert(
      fc.asyncProperty(
        fc.record({ before: fc.string({ maxLength: 8 }), bad: fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800'), after: fc.string({ maxLength: 8 }) }),
        async ({ before, bad, after }) => {
          const text = `${before}${bad}${after}`;
          for (const write of writes) {
            for (const [path, param] of write.fields) {
              const reply = await call(write.method, write.path, set(write.body, path, text));
              expect([write.method, write.path, reply.status, JSON.parse(reply.body).error.param]).toEqual([write.method, write.path, 400, param]);
            }
          }
        },
      ),
      { ...RUNS, numRuns: 12 },
    );
    // In the path and the query: a 400 naming the parameter, or a 404 for an id nothing can have.
    const paths: Array<[string, string, number, string | undefined]> = [
      ['PUT', '/admin/plans/a%00b', 400, 'name'],
      ['PUT', '/admin/providers/a%00b', 400, 'slug'],
      ['PUT', '/admin/models/rosetta/a%00b', 400, 'name'],
      ['PATCH', '/admin/keys/a%00b', 404, undefined],
      ['PATCH', '/admin/teams/a%00b', 404, undefined],
      ['GET', '/admin/audit?actor=a%00b', 400, 'actor'],
      ['GET', '/admin/audit?target=a%00b', 400, 'target'],
      ['GET', '/admin/requests?model=a%00b', 400, 'model'],
      ['GET', '/admin/requests/a%00b', 404, undefined],
      ['DELETE', '/admin/webhooks/a%00b', 404, undefined],
    ];
    for (const [method, path, status, param] of paths) {
      // No body with GET or DELETE: node's client sends one without a length there, which reads as a second, broken request.
      const reply = await call(method, path, method === 'GET' || method === 'DELETE' ? undefined : path.includes('plans') ? { rpm: 1, tpm: 1 } : path.includes('models') ? model : path.includes('providers') ? provider : { name: 'n' });
      expect([method, path, reply.status, JSON.parse(reply.body).error.param ?? undefined]).toEqual([method, path, status, param]);
    }
    const stored = await adminCall(stack.gateway, 'GET', '/admin/audit?target=fuzz-admin');
    expect(stored.body.data.map((e: { action: string }) => e.action)).toEqual(['team.create']);
  });

  it('refuses absolute-form and fragment request targets on every route, data plane and admin, with a 400 in the route dialect', async () => {
    const paths = [...new Set(POST_ROUTES.map((route) => route.path('rosetta/gemini-2.5-flash', ':generateContent'))), '/v1/models', '/v1beta/models', '/admin/keys', '/admin/session', '/metrics', '/dashboard', '/openapi.json', '/docs', '/healthz'];
    const target = fc
      .record({ path: fc.constantFrom(...paths), prefix: fc.constantFrom('http://x', 'https://gateway.example:8443', 'HTTP://127.0.0.1', 'http://[::1]', 'ftp://a', ''), suffix: fc.constantFrom('', '#', '#/v1/models', '?a=1#b', '?key=k') })
      .filter(({ prefix, suffix }) => prefix !== '' || suffix.includes('#'));
    await fc.assert(
      fc.asyncProperty(fc.record({ target, post: fc.boolean(), admin: fc.boolean() }), async ({ target: { path, prefix, suffix }, post, admin }) => {
        const headers: Record<string, string> = { authorization: `Bearer ${admin ? TEST_ADMIN_TOKEN : stack.key}`, 'x-api-key': stack.key, 'content-type': 'application/json' };
        const call: Call = { method: post ? 'POST' : 'GET', path: `${prefix}${path}${suffix}`, headers, ...(post ? { body: Buffer.from(toJsonText(SEEDS.openai[0]!)) } : {}) };
        const reply = await expectWellBehaved(call);
        expect([reply.status, JSON.parse(reply.body).error.message]).toEqual([400, expect.stringMatching(/^Invalid request target: it must be a path/)]);
      }),
      { ...RUNS, numRuns: 120 },
    );
  });

  it('answers a body of up to the limit without a valid key 401 in the route dialect before it is uploaded, on every POST route', async () => {
    const declared = 10 * 1024 * 1024;
    await fc.assert(
      fc.asyncProperty(
        fc.record({ route: fc.constantFrom(...POST_ROUTES), how: fc.constantFrom<Auth>('none', 'wrong', 'query'), sent: fc.integer({ min: 0, max: 256 * 1024 }), encoding: fc.constantFrom('', 'gzip', 'br'), chunked: fc.boolean() }),
        async ({ route, how, sent, encoding, chunked }) => {
          const headers: Record<string, string> = {};
          // A wrong key in ?key= (only Gemini's routes look there; elsewhere it is no key at all).
          const keyParam = how === 'query' ? 'key=rsk_not-a-real-key' : authenticate(route.dialect, how, headers);
          const path = `${route.path('rosetta/gemini-2.5-flash', ':generateContent')}${keyParam ? `?${keyParam}` : ''}`;
          const lines = [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${declared}`];
          if (encoding) lines.push(`Content-Encoding: ${encoding}`);
          for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
          const start = `{"messages":[{"role":"user","content":"${'x'.repeat(sent)}`;
          const answer = await answerBeforeUpload(stack.gateway.url, lines.join('\r\n'), chunked ? `${start.length.toString(16)}\r\n${start}\r\n` : start);
          const requestId = /^x-request-id: (\S+)$/im.exec(answer.headers)?.[1] ?? '';
          const envelope = readErrorEnvelope(dialectOf(path), answer.status, answer.body, requestId);
          expect({ status: answer.status, envelope }).toEqual({ status: 401, envelope: { type: 'authentication_error', message: expect.any(String) } });
        },
      ),
      { ...RUNS, numRuns: 60 },
    );
  });

  it('leaves every provider as healthy as it was, and the gateway serving', async () => {
    expect(await providerStatuses()).toEqual(before);
    const reply = await expectWellBehaved({
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
      body: Buffer.from(toJsonText(SEEDS.openai[0]!)),
    });
    expect(reply.status).toBe(200);
  });
});
