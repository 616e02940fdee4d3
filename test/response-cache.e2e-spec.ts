import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { readAnswer, readStream, type Dialect } from './support/dialect-wire';
import { createTestDatabase, query, TEST_REDIS_URL } from './support/services';
import Redis from 'ioredis';

/**
 * The response cache (issue 29, ARCHITECTURE §9) on two replicas sharing PostgreSQL and Redis:
 * an answer stored from one dialect serves every dialect, streamed or not, only within its scope,
 * for its TTL, steered by Cache-Control, and each hit is a ledger row at cost 0 with what it saved.
 */
describe('response cache (exact)', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let a: GatewayProcess;
  let b: GatewayProcess;
  let redis: Redis;

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-operator-000000000000' };
    [a, b] = await Promise.all([startGateway(env), startGateway(env)]);
    redis = new Redis(TEST_REDIS_URL);
  });

  afterAll(async () => {
    redis?.disconnect();
    await Promise.all([a?.stop(), b?.stop()]);
    await sim?.close();
    await db?.drop();
  });

  const MODEL = 'rosetta/gpt-4o-mini';

  /** The same question in each dialect: one user turn, 200 output tokens at most. */
  function call(gateway: GatewayProcess, key: string, dialect: Dialect, text: string, stream: boolean, headers: Record<string, string> = {}): Promise<Response> {
    const json = { 'content-type': 'application/json', ...headers };
    const bearer = { ...json, authorization: `Bearer ${key}` };
    const post = (path: string, head: Record<string, string>, body: unknown) => fetch(`${gateway.url}${path}`, { method: 'POST', headers: head, body: JSON.stringify(body) });
    switch (dialect) {
      case 'openai':
        return post('/v1/chat/completions', bearer, { model: MODEL, max_tokens: 200, stream, messages: [{ role: 'user', content: text }] });
      case 'anthropic':
        return post('/v1/messages', { ...json, 'x-api-key': key, 'anthropic-version': '2023-06-01' }, { model: MODEL, max_tokens: 200, stream, messages: [{ role: 'user', content: text }] });
      case 'openai-responses':
        return post('/v1/responses', bearer, { model: MODEL, max_output_tokens: 200, stream, input: text });
      case 'gemini':
        return post(`/v1beta/models/${MODEL}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`, { ...json, 'x-goog-api-key': key }, {
          contents: [{ role: 'user', parts: [{ text }] }],
          generationConfig: { maxOutputTokens: 200 },
        });
    }
  }

  /** The answer's text, from a whole answer or a stream, and the cache's headers. */
  async function ask(gateway: GatewayProcess, key: string, dialect: Dialect, text: string, stream = false, headers: Record<string, string> = {}) {
    const res = await call(gateway, key, dialect, text, stream, headers);
    const body = await res.text();
    const answer = res.status !== 200 ? undefined : stream ? readStream(dialect, body) : readAnswer(dialect, body);
    const said = answer && 'text' in answer ? answer.text : undefined;
    if (stream && answer && 'kind' in answer) expect(answer.kind).toBe('finished');
    return { status: res.status, text: said, body, cache: res.headers.get('x-rosetta-cache'), age: res.headers.get('age'), cost: res.headers.get('x-rosetta-cost-usd'), requestId: res.headers.get('x-request-id') };
  }

  /** Upstream calls whose latest turn holds `text`. */
  const upstreamCalls = (text: string) => sim.requests().filter((r) => JSON.stringify(r.body).includes(text)).length;

  async function cachedKey(cache: Record<string, unknown> | null, extra: Record<string, unknown> = {}) {
    return createKey(a, 'enterprise', { cache, ...extra });
  }

  /** Every replica writes its ledger within a second or so: wait for the rows, not for a time. */
  async function ledgerRows(keyId: string, count: number) {
    for (let i = 0; ; i++) {
      const rows = await query<{ cache: string | null; cost_usd: string; saved_usd: string | null; attempts: number; input_tokens: number; output_tokens: number; streamed: boolean; dialect: string; route: string | null }>(
        db.url,
        'SELECT cache, cost_usd::text, saved_usd::text, attempts, input_tokens, output_tokens, streamed, dialect, route FROM request_log WHERE api_key_id = $1 ORDER BY created_at',
        [keyId],
      );
      if (rows.length >= count || i >= 100) return rows;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('stores an answer and serves it again to every dialect, streamed or not, on either replica, at cost 0', async () => {
    const key = await cachedKey({ mode: 'exact', ttl_s: 600 });
    const question = 'what is a cache, in one line? (dialects)';
    const first = await ask(a, key.key, 'openai', question);
    expect(first).toMatchObject({ status: 200, cache: 'miss' });
    expect(first.text).toBeTruthy();
    expect(Number(first.cost)).toBeGreaterThan(0);
    expect(upstreamCalls(question)).toBe(1);

    for (const dialect of ['openai', 'anthropic', 'gemini', 'openai-responses'] as const) {
      for (const stream of [false, true]) {
        const again = await ask(dialect === 'anthropic' ? b : a, key.key, dialect, question, stream);
        expect({ dialect, stream, status: again.status, cache: again.cache, text: again.text }).toEqual({ dialect, stream, status: 200, cache: 'hit', text: first.text });
        expect(Number(again.age)).toBeGreaterThanOrEqual(0);
        if (!stream) expect(again.cost).toBe('0');
      }
    }
    expect(upstreamCalls(question)).toBe(1);

    const rows = await ledgerRows(key.id, 9);
    expect(rows).toHaveLength(9);
    expect(rows[0]).toMatchObject({ cache: 'miss', attempts: 1, saved_usd: null });
    const saved = Number(rows[0]!.cost_usd);
    for (const hit of rows.slice(1)) {
      expect(hit).toMatchObject({ cache: 'hit', attempts: 0, route: 'cache hit', input_tokens: rows[0]!.input_tokens, output_tokens: rows[0]!.output_tokens });
      expect(Number(hit.cost_usd)).toBe(0);
      expect(Number(hit.saved_usd)).toBeCloseTo(saved, 12);
    }
    expect(new Set(rows.slice(1).map((r) => r.dialect))).toEqual(new Set(['openai', 'anthropic', 'gemini', 'openai-responses']));
    expect(rows.filter((r) => r.streamed)).toHaveLength(4);

    const usage = await adminCall(a, 'GET', `/admin/usage?group_by=key&key_id=${key.id}`);
    expect(usage.status).toBe(200);
    expect(usage.body.totals).toMatchObject({ requests: 9, cache_hits: 8 });
    expect(Number(usage.body.totals.saved_usd)).toBeCloseTo(saved * 8, 9);
    const csv = await fetch(`${a.url}/admin/usage?group_by=key&key_id=${key.id}&format=csv`, { headers: { authorization: `Bearer ${(await import('./support/gateway-process')).TEST_ADMIN_TOKEN}` } });
    const [header, line] = (await csv.text()).trim().split('\r\n');
    expect(header!.split(',').slice(-2)).toEqual(['cache_hits', 'saved_usd']);
    expect(line!.split(',').at(-2)).toBe('8');
  });

  it('stores a streamed answer for a plain request, and gives each hit its own id', async () => {
    const key = await cachedKey({ mode: 'exact' });
    const question = 'stream first, then ask plainly';
    const streamed = await ask(a, key.key, 'anthropic', question, true);
    expect(streamed).toMatchObject({ status: 200, cache: 'miss' });
    const plain = await ask(b, key.key, 'anthropic', question);
    expect(plain).toMatchObject({ status: 200, cache: 'hit', text: streamed.text });
    const again = await ask(b, key.key, 'anthropic', question);
    expect(JSON.parse(again.body).id).not.toBe(JSON.parse(plain.body).id);
    expect(upstreamCalls(question)).toBe(1);
  });

  it('keeps answers within a team, or within the key for a key without one', async () => {
    const team = await adminCall(a, 'POST', '/admin/teams', { name: 'cache-team' });
    const other = await adminCall(a, 'POST', '/admin/teams', { name: 'cache-other-team' });
    const [one, two, outsider, loner] = await Promise.all([
      cachedKey({ mode: 'exact' }, { team_id: team.body.id }),
      cachedKey({ mode: 'exact' }, { team_id: team.body.id }),
      cachedKey({ mode: 'exact' }, { team_id: other.body.id }),
      cachedKey({ mode: 'exact' }),
    ]);
    const question = 'a secret only this team may see again';
    expect((await ask(a, one.key, 'openai', question)).cache).toBe('miss');
    expect((await ask(b, two.key, 'openai', question)).cache).toBe('hit');
    expect((await ask(a, outsider.key, 'openai', question)).cache).toBe('miss');
    expect((await ask(a, loner.key, 'openai', question)).cache).toBe('miss');
    expect((await ask(b, loner.key, 'openai', question)).cache).toBe('hit');
    expect(upstreamCalls(question)).toBe(3);
  });

  it('follows Cache-Control: no-cache refreshes the entry, no-store neither reads nor writes', async () => {
    const key = await cachedKey({ mode: 'exact' });
    const question = 'cache control, please';
    sim.script({ match: question, reply: { text: 'the first answer' }, times: 1 });
    expect(await ask(a, key.key, 'openai', question)).toMatchObject({ cache: 'miss', text: 'the first answer' });
    sim.script({ match: question, reply: { text: 'a fresher answer' }, times: 1 });
    expect(await ask(a, key.key, 'openai', question, false, { 'cache-control': 'no-cache' })).toMatchObject({ cache: 'bypass', text: 'a fresher answer' });
    expect(await ask(b, key.key, 'openai', question)).toMatchObject({ cache: 'hit', text: 'a fresher answer' });

    const unstored = 'never keep this one';
    sim.script({ match: unstored, reply: { text: 'kept nowhere' } });
    expect(await ask(a, key.key, 'openai', unstored, false, { 'cache-control': 'no-store' })).toMatchObject({ cache: 'bypass', text: 'kept nowhere' });
    expect(await ask(a, key.key, 'openai', unstored)).toMatchObject({ cache: 'miss' });
    expect(upstreamCalls(unstored)).toBe(2);
  });

  it('keeps an entry for its TTL in Redis, and never stores a cut, filtered or n > 1 answer', async () => {
    const key = await cachedKey({ mode: 'exact', ttl_s: 120 });
    const question = 'how long do you keep this?';
    const before = new Set(await redis.keys('rosetta:rcache:*'));
    await ask(a, key.key, 'openai', question);
    const added = (await redis.keys('rosetta:rcache:*')).filter((k) => !before.has(k));
    expect(added).toHaveLength(1);
    const ttl = await redis.ttl(added[0]!);
    expect(ttl).toBeGreaterThan(100);
    expect(ttl).toBeLessThanOrEqual(120);

    for (const [finish, text] of [['length', 'cut at its cap'], ['content_filter', 'filtered away']] as const) {
      sim.script({ match: text, reply: { text: 'partial', finish } });
      await ask(a, key.key, 'openai', text);
      expect((await ask(b, key.key, 'openai', text)).cache).toBe('miss');
    }
    const many = await fetch(`${a.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, n: 2, messages: [{ role: 'user', content: 'two answers please' }] }),
    });
    expect(many.headers.get('x-rosetta-cache')).toBe('bypass');
  });

  it('stops serving an answer once its TTL has passed, and stores the fresh one', async () => {
    const key = await cachedKey({ mode: 'exact', ttl_s: 1 });
    const question = 'a one-second answer';
    sim.script({ match: question, reply: { text: 'the old answer' }, times: 1 });
    expect(await ask(a, key.key, 'openai', question)).toMatchObject({ cache: 'miss', text: 'the old answer' });
    expect(await ask(b, key.key, 'openai', question)).toMatchObject({ cache: 'hit', text: 'the old answer' });
    sim.script({ match: question, reply: { text: 'the new answer' } });
    // Redis expires the entry a second after it was written: ask until it has (a hit until then).
    let answer = await ask(a, key.key, 'openai', question);
    for (let i = 0; i < 50 && answer.cache === 'hit'; i++) {
      expect(answer.text).toBe('the old answer');
      await new Promise((r) => setTimeout(r, 100));
      answer = await ask(a, key.key, 'openai', question);
    }
    expect(answer).toMatchObject({ cache: 'miss', text: 'the new answer' });
  });

  it('serves a hit when the budget is spent, and counts it against RPM', async () => {
    const spender = await cachedKey({ mode: 'exact' });
    const question = 'served even when the money is gone';
    expect((await ask(a, spender.key, 'openai', question)).cache).toBe('miss');
    expect((await adminCall(a, 'PATCH', `/admin/keys/${spender.id}`, { budget_usd: 0.000000001, budget_period: 'day' })).status).toBe(200);
    // The budget reaches both replicas within a second: wait until a new question is refused.
    let refused = 0;
    for (let i = 0; i < 100 && refused === 0; i++) if ((await call(b, spender.key, 'openai', `a new question ${i}`, false)).status === 402) refused++;
    expect(refused).toBe(1);
    expect(await ask(b, spender.key, 'openai', question)).toMatchObject({ status: 200, cache: 'hit' });

    const limited = await cachedKey({ mode: 'exact' }, { rpm: 2 });
    expect((await ask(a, limited.key, 'openai', question)).cache).toBe('miss');
    expect(await ask(b, limited.key, 'openai', question)).toMatchObject({ status: 200, cache: 'hit' });
    const third = await call(a, limited.key, 'openai', question, false);
    expect(third.status).toBe(429);
    expect(third.headers.get('x-ratelimit-remaining-requests')).toBe('0');
  });

  it('answers the admin API with cache settings on plans and keys, refusing bad ones by field', async () => {
    const plan = await adminCall(a, 'PUT', '/admin/plans/cached-plan', { rpm: null, tpm: null, cache: { mode: 'exact' }, prompt_cache: 'auto' });
    expect(plan.status).toBe(201);
    expect(plan.body).toEqual({ name: 'cached-plan', rpm: null, tpm: null, cache: { mode: 'exact', ttl_s: 3600, similarity: 0.95 }, prompt_cache: 'auto', guardrails: null });
    const bad = await adminCall(a, 'PATCH', '/admin/plans/cached-plan', { cache: { mode: 'sometimes' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ param: 'cache.mode' });
    const badTtl = await adminCall(a, 'POST', '/admin/keys', { name: 'k', plan: 'cached-plan', cache: { mode: 'exact', ttl_s: 0 } });
    expect(badTtl.status).toBe(400);
    expect(badTtl.body.error).toMatchObject({ param: 'cache.ttl_s' });

    // A key on the plan inherits its cache; a key set to off overrides it.
    const inherits = await createKey(a, 'cached-plan');
    const off = await createKey(a, 'cached-plan', { cache: { mode: 'off' } });
    const question = 'inherited from the plan';
    expect((await ask(a, inherits.key, 'openai', question)).cache).toBe('miss');
    expect((await ask(b, inherits.key, 'openai', question)).cache).toBe('hit');
    expect((await ask(a, off.key, 'openai', question)).cache).toBeNull();
    const shown = await adminCall(a, 'GET', `/admin/keys/${off.id}`);
    expect(shown.body).toMatchObject({ cache: { mode: 'off', ttl_s: 3600, similarity: 0.95 }, prompt_cache: null });
    const cleared = await adminCall(a, 'PATCH', `/admin/keys/${off.id}`, { cache: null });
    expect(cleared.body.cache).toBeNull();
  });

  it('refuses semantic mode on a PostgreSQL without pgvector, naming the field, and keeps exact mode working', async () => {
    const onPlan = await adminCall(a, 'PUT', '/admin/plans/semantic-plan', { rpm: null, tpm: null, cache: { mode: 'semantic', similarity: 0.9 } });
    expect(onPlan.status).toBe(400);
    expect(onPlan.body.error).toMatchObject({ type: 'invalid_request_error', param: 'cache.mode', message: expect.stringContaining("'vector' extension (pgvector)") });
    const onKey = await adminCall(b, 'POST', '/admin/keys', { name: 'semantic', plan: 'enterprise', cache: { mode: 'semantic' } });
    expect(onKey.status).toBe(400);
    expect(onKey.body.error.param).toBe('cache.mode');
    const exact = await cachedKey({ mode: 'exact' });
    expect((await adminCall(a, 'PATCH', `/admin/keys/${exact.id}`, { cache: { mode: 'semantic' } })).status).toBe(400);
    expect((await adminCall(a, 'GET', `/admin/keys/${exact.id}`)).body.cache.mode).toBe('exact');
  });
});
