import { adminCall, createKey } from './support/gateway-process';
import { sendRaw } from './support/fuzz-requests';
import { query } from './support/services';
import { startStack, type Stack } from './support/stack';

/**
 * Issue 26, items 6, 7, 11–13: an admin change and its audit row commit together or not at all,
 * one transaction per admin write, stored text and integers refused with a 400 naming the field
 * when PostgreSQL could not store them, model ids written only in one safe ASCII form, and the
 * Gemini model list showing a key what /v1/models shows it.
 */
describe('admin writes', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
    // Stand-ins for a database that fails part-way: an endpoint row, and an audit row, it refuses.
    await query(stack.db.url, `CREATE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await query(stack.db.url, `CREATE TRIGGER test_refuse_endpoint BEFORE INSERT ON endpoints FOR EACH ROW WHEN (NEW.upstream_model = 'refused') EXECUTE FUNCTION test_refuse()`);
    await query(stack.db.url, `CREATE TRIGGER test_refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW WHEN (NEW.details->>'name' = 'unrecordable') EXECUTE FUNCTION test_refuse()`);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const admin = (method: string, path: string, body?: unknown) => adminCall(stack.gateway, method, path, body);
  const endpoint = (model: string, extra: Record<string, unknown> = {}) => ({
    model, upstream_model: 'gpt-4o-mini', context_length: 8000, max_completion_tokens: 1000, pricing: { prompt: '0', completion: '0' }, ...extra,
  });
  const provider = (endpoints: unknown[]) => ({ protocol: 'openai', base_url: `${stack.sim.url}/v1`, api_key_env: 'OPENAI_API_KEY', endpoints });
  const auditOf = async (action: string, target: string) => (await admin('GET', `/admin/audit?action=${action}&target=${encodeURIComponent(target)}`)).body.data.map((e: any) => e.details);
  const refusal = (param: string, message: string | RegExp) => ({ status: 400, body: { error: expect.objectContaining({ type: 'invalid_request_error', param, message: typeof message === 'string' ? message : expect.stringMatching(message) }), request_id: expect.stringMatching(/^req_/) } });

  it('records a key change with the fields it validated, whatever else the body carries', async () => {
    const created = await admin('POST', '/admin/keys', { name: 'x', plan: 'pro', note: '\u0000' });
    expect(created.status).toBe(201);
    expect(await auditOf('key.create', created.body.id)).toEqual([{ name: 'x', plan: 'pro' }]);
    const patched = await admin('PATCH', `/admin/keys/${created.body.id}`, { rpm: 5, note: '\ud800' });
    expect(patched.status).toBe(200);
    expect(await auditOf('key.update', created.body.id)).toEqual([{ rpm: 5 }]);
    const revoked = await admin('DELETE', `/admin/keys/${created.body.id}`);
    expect(revoked.status).toBe(200);
    expect(await auditOf('key.revoke', created.body.id)).toEqual([null]);
  });

  it('makes no change whose audit row cannot be written', async () => {
    const created = await admin('POST', '/admin/keys', { name: 'unrecordable', plan: 'pro' });
    expect(created.status).toBe(500);
    expect(await query(stack.db.url, `SELECT id FROM api_keys WHERE name = 'unrecordable'`)).toEqual([]);
  });

  it('writes a provider and its endpoints in one transaction: a failing second endpoint leaves nothing', async () => {
    const put = await admin('PUT', '/admin/providers/halfway', provider([endpoint('rosetta/halfway-one'), endpoint('rosetta/halfway-two', { upstream_model: 'refused' })]));
    expect(put.status).toBe(500);
    expect(await query(stack.db.url, `SELECT slug FROM providers WHERE slug = 'halfway'`)).toEqual([]);
    expect(await query(stack.db.url, `SELECT name FROM models WHERE name LIKE 'halfway-%'`)).toEqual([]);
    expect(await auditOf('provider.put', 'halfway')).toEqual([]);
    expect((await admin('GET', '/admin/providers')).body.map((p: any) => p.slug)).not.toContain('halfway');
  });

  it('refuses NUL and lone surrogates in stored text, naming the field', async () => {
    for (const bad of ['a\u0000b', '\ud800', 'x\udc00']) {
      const message = "Invalid 'name': must not contain NUL (\\u0000) or an unpaired UTF-16 surrogate";
      expect(await admin('POST', '/admin/keys', { name: bad, plan: 'pro' })).toEqual(refusal('name', message));
      expect(await admin('POST', '/admin/teams', { name: bad })).toEqual(refusal('name', message));
      expect(await admin('PUT', '/admin/providers/texts', provider([endpoint('rosetta/texts', { upstream_model: bad })]))).toEqual(refusal('endpoints[0].upstream_model', /must not contain NUL/));
      expect(await admin('PUT', '/admin/models/rosetta/texts', { display_name: bad, author: 'me' })).toEqual(refusal('display_name', /must not contain NUL/));
    }
    expect(await query(stack.db.url, `SELECT count(*)::int AS n FROM providers WHERE slug = 'texts'`)).toEqual([{ n: 0 }]);
  });

  it('bounds every integer to its column and checks dates', async () => {
    for (const context_length of [1e300, 3_000_000_000]) {
      expect(await admin('PUT', '/admin/providers/ints', provider([endpoint('rosetta/ints', { context_length })]))).toEqual(refusal('endpoints[0].context_length', "Invalid 'endpoints[0].context_length': must not be greater than 2147483647"));
    }
    expect(await admin('PUT', '/admin/models/rosetta/dates', { display_name: 'd', author: 'me', created_at: 'not a date' })).toEqual(refusal('created_at', "Invalid 'created_at': must be an ISO 8601 date-time"));
  });

  it('writes model ids only in the safe ASCII form, and refuses others naming the field', async () => {
    const message = /^Invalid '(name|endpoints\[0\]\.model)': a model name is 1 to 128 ASCII letters/;
    expect(await admin('PUT', `/admin/models/rosetta/${encodeURIComponent('модель')}`, { display_name: 'm', author: 'me' })).toEqual(refusal('name', message));
    expect(await admin('PUT', '/admin/providers/ids', provider([endpoint('rosetta/модель')]))).toEqual(refusal('endpoints[0].model', message));
    expect(await admin('PUT', '/admin/providers/ids', provider([endpoint(`rosetta/${'a'.repeat(129)}`)]))).toEqual(refusal('endpoints[0].model', message));
    const ok = await admin('PUT', '/admin/providers/ids', provider([endpoint('rosetta/Org/model-1.5:free')]));
    expect(ok.status).toBe(200);
  });

  it('answers a NUL in a query or path parameter with a 400 or 404, never a 5xx', async () => {
    const admin400 = async (path: string, param: string) => expect(await admin('GET', path)).toEqual(refusal(param, `Invalid '${param}': must not contain NUL (\\u0000) or an unpaired UTF-16 surrogate`));
    await admin400('/admin/audit?actor=%00', 'actor');
    await admin400('/admin/audit?target=%00', 'target');
    await admin400('/admin/requests?model=%00', 'model');
    expect((await admin('GET', '/admin/requests/%00')).status).toBe(404);
    // As any id that names no stored response: a 404 in the OpenAI shape, not a 503 SDKs would retry.
    for (const id of ['%00', 'resp_missing']) {
      const reply = await sendRaw(stack.gateway.port, { method: 'GET', path: `/v1/responses/${id}`, headers: { authorization: `Bearer ${stack.key}` } });
      expect([reply.status, JSON.parse(reply.body).error.type, JSON.parse(reply.body).error.param]).toEqual([404, 'not_found_error', 'id']);
    }
  });

  it('lists exactly the models of /v1/models on /v1beta/models, for a key with an allow-list too', async () => {
    const all = async (key: string) => ((await (await fetch(`${stack.gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).json()) as any).data.map((m: any) => m.id);
    const gemini = async (key: string, path = '/v1beta/models') => fetch(`${stack.gateway.url}${path}`, { headers: { 'x-goog-api-key': key } });
    const listed = await all(stack.key);
    const allowed = listed.filter((id: string) => id !== 'rosetta/auto').slice(0, 2);
    const { key } = await createKey(stack.gateway, 'enterprise', { models: allowed });
    for (const k of [stack.key, key]) {
      const names = ((await (await gemini(k)).json()) as any).models.map((m: any) => m.name);
      expect(names).toEqual((await all(k)).map((id: string) => `models/${id}`));
    }
    const other = listed.find((id: string) => id !== 'rosetta/auto' && !allowed.includes(id));
    expect((await gemini(key, `/v1beta/models/${other}`)).status).toBe(403);
    expect((await gemini(key, `/v1beta/models/${allowed[0]}`)).status).toBe(200);
  });
});
