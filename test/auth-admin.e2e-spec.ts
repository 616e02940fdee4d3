import OpenAI from 'openai';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, TEST_ADMIN_TOKEN, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase, query, TEST_REDIS_URL } from './support/services';

/** Two replicas sharing one PostgreSQL, as behind an ingress. */
describe('API keys, admin API and revocation across replicas', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let a: GatewayProcess;
  let b: GatewayProcess;

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-operator-0123456789abcdef' };
    a = await startGateway(env);
    b = await startGateway(env);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await sim?.close();
    await db?.drop();
  });

  const chat = (gateway: GatewayProcess, headers: Record<string, string>, path = '/v1/chat/completions') =>
    fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 }),
    });

  it('issues a key once, stores only its hash, and lists it without the secret', async () => {
    const created = await adminCall(a, 'POST', '/admin/keys', { name: 'ci', plan: 'free' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(
      expect.objectContaining({ id: expect.any(String), key: expect.stringMatching(/^rsk_[A-Za-z0-9]{12}_[A-Za-z0-9]{40}$/), name: 'ci', plan: 'free', created_at: expect.any(String) }),
    );
    const rows = await query<{ secret_hash: string }>(db.url, 'SELECT secret_hash FROM api_keys WHERE id = $1', [created.body.id]);
    const secret = (created.body.key as string).split('_')[2]!;
    expect(rows[0]!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(secret);

    const listed = await adminCall(b, 'GET', '/admin/keys');
    expect(listed.status).toBe(200);
    const mine = listed.body.find((k: { id: string }) => k.id === created.body.id);
    expect(mine).toEqual(expect.objectContaining({ name: 'ci', plan: 'free', prefix: created.body.key.slice(0, 16), revoked_at: null }));
    expect(JSON.stringify(listed.body)).not.toContain(secret);
  });

  it('accepts X-API-Key and Bearer, and x-goog-api-key / ?key= only on /v1beta', async () => {
    const { key } = await createKey(a);
    expect((await chat(a, { 'x-api-key': key })).status).toBe(200);
    expect((await chat(a, { authorization: `Bearer ${key}` })).status).toBe(200);
    expect((await chat(a, { 'x-goog-api-key': key })).status).toBe(401);
    const viaQuery = await fetch(`${a.url}/v1beta/models/rosetta/gpt-4o-mini:generateContent?key=${key}`, { method: 'POST', body: '{}' });
    expect(viaQuery.status).not.toBe(401);
  });

  describe('every auth failure is a 401 in the caller dialect with a request_id', () => {
    // A wrong secret reads as an unknown key: the answer never says whether a key id exists.
    const UNKNOWN = 'Invalid API key: no key of this gateway matches it (mistyped, or issued by another gateway); create one in the dashboard (Keys) or with POST /admin/keys';
    const cases: Array<[string, () => Promise<Record<string, string>>, string]> = [
      ['missing', async () => ({}), 'Missing API key: send it as Authorization: Bearer rsk_… (this route also takes the x-api-key header)'],
      ['without Bearer', async () => ({ authorization: (await createKey(a)).key }),
        'Missing API key: an Authorization header was received without the Bearer scheme (Authorization: rsk_…); expected Authorization: Bearer rsk_…'],
      ['unknown', async () => ({ authorization: 'Bearer rsk_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' }), UNKNOWN],
      ['garbage', async () => ({ authorization: 'Bearer nonsense' }), 'Invalid API key: not a gateway API key (expected rsk_ followed by 12 and 40 letters or digits); create one in the dashboard (Keys) or with POST /admin/keys'],
      ['a provider key', async () => ({ authorization: 'Bearer sk-proj-0123456789abcdefghijklmnopqrstuvwxyz' }),
        "Invalid API key: this is an OpenAI API key (sk-…); the gateway holds the providers' keys itself: call it with a gateway API key (rsk_…), create one in the dashboard (Keys) or with POST /admin/keys"],
      ['an admin token', async () => ({ authorization: 'Bearer rat_0123456789abcdefghijklmnopqrstuv' }),
        'Invalid API key: this is an admin token (rat_…), which signs in to the dashboard and the admin API; call models with an API key (rsk_…) created there'],
      ['wrong secret', async () => {
        const { key } = await createKey(a);
        return { 'x-api-key': `${key.slice(0, -4)}AAAA` };
      }, UNKNOWN],
      ['revoked', async () => {
        const { id, key } = await createKey(a);
        await adminCall(a, 'DELETE', `/admin/keys/${id}`);
        return { 'x-api-key': key };
      }, 'API key has been revoked: ask an admin for a new one'],
      ['expired', async () => {
        // A past expires_at is refused at creation (budgets.e2e-spec), so the key expires in the
        // database before its first use: the replica has not cached it yet and reads the row.
        const { id, key } = await createKey(a, 'pro', { expires_at: new Date(Date.now() + 3_600_000).toISOString() });
        await query(db.url, "UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE id = $1", [id]);
        return { 'x-api-key': key };
      }, 'API key has expired: ask an admin to extend it (expires_at) or for a new one'],
    ];

    it.each(cases)('%s key, dialect A', async (_name, headers, message) => {
      const res = await chat(a, await headers());
      const body = (await res.json()) as any;
      expect(res.status).toBe(401);
      expect(body).toEqual({ error: { message, type: 'authentication_error', code: null, param: null }, request_id: res.headers.get('x-request-id') });
    });

    it('renders errors in the dialect B and C envelopes on their path prefixes', async () => {
      const anthropic = await chat(a, {}, '/v1/messages/unknown-route');
      expect(anthropic.status).toBe(404);
      expect(await anthropic.json()).toEqual({
        type: 'error',
        error: { type: 'not_found_error', message: 'Unknown route: POST /v1/messages/unknown-route' },
        request_id: anthropic.headers.get('x-request-id'),
      });
      const gemini = await chat(a, {}, '/v1beta/unknown');
      expect(gemini.status).toBe(404);
      expect(await gemini.json()).toEqual({
        error: { code: 404, message: 'Unknown route: POST /v1beta/unknown', status: 'NOT_FOUND', type: 'not_found_error' },
        request_id: gemini.headers.get('x-request-id'),
      });
      // Without a key the body is never read: a 401 (issue 26); with one, the size limit answers.
      const stranger = await fetch(`${a.url}/v1beta/models/x:generateContent`, { method: 'POST', body: 'x'.repeat(11 * 1024 * 1024) });
      expect(stranger.status).toBe(401);
      const { key: sizeKey } = await createKey(a);
      const tooBig = await fetch(`${a.url}/v1beta/models/x:generateContent`, { method: 'POST', headers: { 'x-goog-api-key': sizeKey }, body: 'x'.repeat(11 * 1024 * 1024) });
      expect(tooBig.status).toBe(413);
      expect(((await tooBig.json()) as any).error).toEqual(expect.objectContaining({ code: 413, type: 'request_too_large', status: 'INVALID_ARGUMENT' }));
      const malformed = await fetch(`${a.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': sizeKey }, body: '{nope' });
      expect(malformed.status).toBe(400);
      expect(((await malformed.json()) as any).type).toBe('error');
    });

    it("names, on each dialect's routes, the places that route takes a key, in its envelope", async () => {
      const { key } = await createKey(a);
      const post = (path: string, headers: Record<string, string> = {}) => fetch(`${a.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
      const gemini = await post('/v1beta/models/rosetta/gemini-2.5-flash:generateContent');
      expect({ status: gemini.status, body: await gemini.json() }).toEqual({
        status: 401,
        body: {
          error: {
            code: 401,
            message: 'Missing API key: send it in the x-goog-api-key header or as ?key=rsk_… (this route also takes Authorization: Bearer rsk_… and the x-api-key header)',
            status: 'UNAUTHENTICATED',
            type: 'authentication_error',
          },
          request_id: gemini.headers.get('x-request-id'),
        },
      });
      const anthropic = await post('/v1/messages', { authorization: key });
      expect({ status: anthropic.status, body: await anthropic.json() }).toEqual({
        status: 401,
        body: {
          type: 'error',
          error: { type: 'authentication_error', message: 'Missing API key: an Authorization header was received without the Bearer scheme (Authorization: rsk_…); expected Authorization: Bearer rsk_…' },
          request_id: anthropic.headers.get('x-request-id'),
        },
      });
      const empty = await post('/v1/messages', { 'x-api-key': '' });
      expect(((await empty.json()) as any).error.message).toBe('Missing API key: the x-api-key header was received empty; send it in the x-api-key header (this route also takes Authorization: Bearer rsk_…)');
      const responses = await post('/v1/responses');
      expect(((await responses.json()) as any).error.message).toBe('Missing API key: send it as Authorization: Bearer rsk_… (this route also takes the x-api-key header)');
      // Each place named is one the route takes.
      expect((await post('/v1beta/models/rosetta/gemini-2.5-flash:generateContent', { 'x-api-key': key })).status).not.toBe(401);
      expect((await post('/v1/messages', { authorization: `Bearer ${key}` })).status).not.toBe(401);
    });

    it('tells a gateway API key sent to the admin API what the admin API takes, still counting and auditing the attempt', async () => {
      const { key } = await createKey(a);
      const before = (await adminCall(a, 'GET', '/admin/audit?action=auth.bearer_refused')).body.data.length;
      const admin = (headers: Record<string, string>) => fetch(`${a.url}/admin/keys`, { headers });
      const bearer = await admin({ authorization: `Bearer ${key}` });
      expect({ status: bearer.status, body: await bearer.json() }).toEqual({
        status: 401,
        body: {
          error: {
            message: 'Invalid admin token: this is a gateway API key (rsk_…), for the data-plane routes; the admin API takes the admin token (ADMIN_TOKEN) as Authorization: Bearer <ADMIN_TOKEN>, or a dashboard session (sign in at /dashboard)',
            type: 'authentication_error',
            code: null,
            param: null,
          },
          request_id: bearer.headers.get('x-request-id'),
        },
      });
      expect((await adminCall(a, 'GET', '/admin/audit?action=auth.bearer_refused')).body.data.length).toBe(before + 1);
      expect(((await (await admin({ 'x-api-key': key })).json()) as any).error.message).toBe(
        'Missing admin token: an x-api-key header was received, which is where data-plane routes take a gateway API key; the admin API takes the admin token (ADMIN_TOKEN) as Authorization: Bearer <ADMIN_TOKEN>, or a dashboard session (sign in at /dashboard)',
      );
      expect(((await (await admin({ authorization: key })).json()) as any).error.message).toBe(
        'Missing admin token: an Authorization header was received without the Bearer scheme (Authorization: rsk_…); the admin API takes the admin token (ADMIN_TOKEN) as Authorization: Bearer <ADMIN_TOKEN>, or a dashboard session (sign in at /dashboard)',
      );
      expect(((await (await admin({ authorization: 'Bearer not-the-token' })).json()) as any).error.message).toBe('Invalid admin token');
      const signIn = await fetch(`${a.url}/admin/session`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-rosetta-dashboard': '1' }, body: JSON.stringify({ token: key }) });
      expect({ status: signIn.status, message: ((await signIn.json()) as any).error.message }).toEqual({
        status: 401,
        message: 'Invalid admin token: this is a gateway API key (rsk_…), for the data-plane routes; the admin API takes the admin token (ADMIN_TOKEN) as Authorization: Bearer <ADMIN_TOKEN>, or a dashboard session (sign in at /dashboard)',
      });
      // A good sign-in clears this address's failures (the throttle is shared through Redis).
      expect((await fetch(`${a.url}/admin/session`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-rosetta-dashboard': '1' }, body: JSON.stringify({ token: TEST_ADMIN_TOKEN }) })).status).toBe(200);
    });

    it('works with the official SDK error classes', async () => {
      const client = new OpenAI({ apiKey: 'rsk_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB', baseURL: `${a.url}/v1`, maxRetries: 0 });
      const error = await client.chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(error.requestID).toMatch(/^req_/);
    });
  });

  it('revocation through one replica takes effect on the other within a second', async () => {
    const { id, key } = await createKey(a);
    expect((await chat(b, { 'x-api-key': key })).status).toBe(200); // b has it cached now
    const revoked = await adminCall(a, 'DELETE', `/admin/keys/${id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    const deadline = Date.now() + 1000;
    let status = 200;
    while (Date.now() < deadline && status !== 401) {
      status = (await chat(b, { 'x-api-key': key })).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
    expect((await chat(a, { 'x-api-key': key })).status).toBe(401);
  });

  it('a key first tried while unknown works as soon as it is created', async () => {
    // b remembers an unknown lookup id briefly; creation must clear that everywhere.
    const created = await createKey(a);
    expect((await chat(b, { 'x-api-key': created.key })).status).toBe(200);
  });

  it('revoking an unknown key is a 404; a malformed id too', async () => {
    expect((await adminCall(a, 'DELETE', '/admin/keys/00000000-0000-0000-0000-000000000000')).status).toBe(404);
    expect((await adminCall(a, 'DELETE', '/admin/keys/not-a-uuid')).status).toBe(404);
  });

  describe('plans', () => {
    it('lists the seeded tiers', async () => {
      const res = await adminCall(a, 'GET', '/admin/plans');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        expect.arrayContaining([
          { name: 'free', rpm: 100, tpm: 10000, cache: null, prompt_cache: null, guardrails: null },
          { name: 'pro', rpm: 1000, tpm: 100000, cache: null, prompt_cache: null, guardrails: null },
          { name: 'enterprise', rpm: null, tpm: null, cache: null, prompt_cache: null, guardrails: null },
        ]),
      );
    });

    it('creates and updates a plan, visible from the other replica, and keys can use it', async () => {
      expect((await adminCall(a, 'PUT', '/admin/plans/team', { rpm: 500, tpm: 50000 })).status).toBe(201);
      const updated = await adminCall(a, 'PUT', '/admin/plans/team', { rpm: 600, tpm: null });
      expect(updated).toEqual({ status: 200, body: { name: 'team', rpm: 600, tpm: null, cache: null, prompt_cache: null, guardrails: null } });
      expect((await adminCall(b, 'GET', '/admin/plans')).body).toContainEqual({ name: 'team', rpm: 600, tpm: null, cache: null, prompt_cache: null, guardrails: null });
      // b learns of the new plan through the bus; give it the same second revocation gets.
      await new Promise((r) => setTimeout(r, 300));
      expect((await adminCall(b, 'POST', '/admin/keys', { name: 'team-key', plan: 'team' })).status).toBe(201);
    });

    it('rejects bad plan input naming the field', async () => {
      expect((await adminCall(a, 'PUT', '/admin/plans/Bad Name', { rpm: 1, tpm: 1 })).body.error.param).toBe('name');
      expect((await adminCall(a, 'PUT', '/admin/plans/x', { rpm: -1, tpm: 1 })).body.error.param).toBe('rpm');
      const res = await adminCall(a, 'POST', '/admin/keys', { name: 'k', plan: 'platinum' });
      expect(res).toEqual({ status: 400, body: expect.objectContaining({ error: expect.objectContaining({ param: 'plan', message: "Unknown plan 'platinum'; see GET /admin/plans" }) }) });
      expect((await adminCall(a, 'POST', '/admin/keys', { plan: 'free' })).body.error.param).toBe('name');
    });
  });

  it('health and readiness need no key; readiness checks the database and Redis', async () => {
    expect(await (await fetch(`${a.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${a.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', database: 'ok', redis: 'ok' });
  });

  it('keeps idle client connections longer than a load balancer keeps its own (65 s, not Node\'s 5 s)', async () => {
    const { key } = await createKey(a);
    const res = await chat(a, { authorization: `Bearer ${key}` });
    await res.text();
    expect(res.headers.get('keep-alive')).toBe('timeout=65');
  });

  it('logs are JSON lines with request ids and never contain keys or prompts', async () => {
    const { key } = await createKey(a);
    const res = await chat(a, { 'x-api-key': key });
    const requestId = res.headers.get('x-request-id')!;
    await new Promise((r) => setTimeout(r, 200)); // logs are written asynchronously
    const lines = a.output().split('\n').filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const access = lines.map((l) => JSON.parse(l)).find((l) => l.requestId === requestId);
    expect(access).toEqual(expect.objectContaining({ msg: 'request', method: 'POST', path: '/v1/chat/completions', status: 200, model: 'rosetta/gpt-4o-mini' }));
    expect(a.output()).not.toContain('"hi"');
    expect(a.output()).not.toContain(key);
    expect(a.output()).not.toContain(TEST_ADMIN_TOKEN);
    expect(a.output()).not.toContain('sk-operator-0123456789abcdef');
  });
});
