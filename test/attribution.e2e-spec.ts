import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import fc from 'fast-check';
import OpenAI from 'openai';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { endUserBudgetHolds, hostileAttribution } from './support/attribution-checks';
import { sendRaw } from './support/fuzz-requests';
import { adminCall, createKey, startGateway, TEST_ADMIN_TOKEN, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase, TEST_REDIS_URL } from './support/services';
import { OPERATOR_KEYS } from './support/stack';

/**
 * Attribution (ARCHITECTURE §9 "Governance", decision 0033) end to end with the official SDKs:
 * the end user and tags from each dialect (and the headers, which win) on the ledger row, bad
 * values refused with a 400 naming them, usage by end user and by tag in JSON and CSV, and a
 * key's end-user budget held exactly over two replicas.
 */
describe('attribution: end user, tags and end-user budgets', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let a: GatewayProcess;
  let b: GatewayProcess;
  let key: { id: string; key: string };

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    // One worker each: two replicas are what the budget check needs, and the machine is shared.
    const env = { WORKERS: '1', DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, OPENAI_BASE_URL: `${sim.url}/v1`, ANTHROPIC_BASE_URL: sim.url, GEMINI_BASE_URL: sim.url, ...OPERATOR_KEYS };
    [a, b] = await Promise.all([startGateway(env), startGateway(env)]);
    key = await createKey(a, 'enterprise');
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await sim?.close();
    await db?.drop();
  });

  const openai = () => new OpenAI({ apiKey: key.key, baseURL: `${a.url}/v1`, maxRetries: 0 });
  const anthropic = () => new Anthropic({ apiKey: key.key, baseURL: a.url, maxRetries: 0 });
  const genai = () => new GoogleGenAI({ apiKey: key.key, httpOptions: { baseUrl: a.url, fetch: (input, init) => fetch(input, init) } });

  /** The key's ledger rows for one end user (the admin API flushes replica a's batch first). */
  async function rowsFor(endUser: string, count = 1): Promise<Array<Record<string, any>>> {
    for (let i = 0; ; i++) {
      const page = await adminCall(a, 'GET', `/admin/requests?key_id=${key.id}&end_user=${encodeURIComponent(endUser)}`);
      expect(page.status).toBe(200);
      if (page.body.data.length >= count || i >= 50) return page.body.data;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const attribution = (rows: Array<Record<string, any>>) => rows.map((row) => ({ end_user: row['end_user'], tags: row['tags'], dialect: row['dialect'], status: row['status'] }));

  it('records the end user and tags of each dialect, streamed and not, and forwards no list of tags upstream', async () => {
    sim.reset();
    await openai().chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], user: 'chat-user', metadata: { tags: ['team:search', 'env=prod'] } as never });
    const stream = await openai().chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], safety_identifier: 'chat-stream-user', metadata: { tags: 'a,b' }, stream: true });
    for await (const _chunk of stream) void _chunk;
    await anthropic().messages.create({ model: 'rosetta/claude-haiku-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }], metadata: { user_id: 'claude-user', tags: ['billing'] } as never });
    await genai().models.generateContent({ model: 'rosetta/gemini-2.5-flash', contents: 'hi', config: { labels: { user: 'gemini-user' }, httpOptions: { headers: { 'x-rosetta-tags': 'g1,g2' } } } });
    await openai().responses.create({ model: 'rosetta/gpt-4o-mini', input: 'hi', user: 'responses-user', metadata: { tags: ['r1'] } as never });

    expect(attribution(await rowsFor('chat-user'))).toEqual([{ end_user: 'chat-user', tags: ['team:search', 'env=prod'], dialect: 'openai', status: 200 }]);
    expect(attribution(await rowsFor('chat-stream-user'))).toEqual([{ end_user: 'chat-stream-user', tags: ['a', 'b'], dialect: 'openai', status: 200 }]);
    expect(attribution(await rowsFor('claude-user'))).toEqual([{ end_user: 'claude-user', tags: ['billing'], dialect: 'anthropic', status: 200 }]);
    expect(attribution(await rowsFor('gemini-user'))).toEqual([{ end_user: 'gemini-user', tags: ['g1', 'g2'], dialect: 'gemini', status: 200 }]);
    expect(attribution(await rowsFor('responses-user'))).toEqual([{ end_user: 'responses-user', tags: ['r1'], dialect: 'openai-responses', status: 200 }]);
    // Same-protocol upstreams got the client's body, but not the gateway's list of tags.
    const upstream = sim.requests().map((r) => r.body as Record<string, any>);
    expect(upstream.find((body) => body['user'] === 'chat-user')?.['metadata']).toEqual({});
    expect(upstream.find((body) => body['safety_identifier'] === 'chat-stream-user')?.['metadata']).toEqual({ tags: 'a,b' });
    expect(upstream.find((body) => body['metadata']?.['user_id'] === 'claude-user')?.['metadata']).toEqual({ user_id: 'claude-user' });
    // Responses to an OpenAI chat upstream: translated, the end user carried as `user`, no metadata.
    expect(upstream.find((body) => body['user'] === 'responses-user')?.['metadata']).toBeUndefined();
    expect(upstream.filter((body) => Array.isArray(body?.['metadata']?.['tags']))).toEqual([]);
  });

  it('takes the headers over the body, in every dialect', async () => {
    const headers = { 'x-rosetta-end-user': 'header-user', 'x-rosetta-tags': 'from-header' };
    await openai().chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], user: 'body-user' }, { headers });
    await anthropic().messages.create({ model: 'rosetta/claude-haiku-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }], metadata: { user_id: 'body-user' } }, { headers });
    await genai().models.generateContent({ model: 'rosetta/gemini-2.5-flash', contents: 'hi', config: { labels: { user: 'body-user' }, httpOptions: { headers } } });
    await openai().responses.create({ model: 'rosetta/gpt-4o-mini', input: 'hi', user: 'body-user', stream: false }, { headers });
    const rows = attribution(await rowsFor('header-user', 4));
    expect(rows.map((row) => row.dialect).sort()).toEqual(['anthropic', 'gemini', 'openai', 'openai-responses']);
    expect(rows.map(({ end_user, tags }) => ({ end_user, tags }))).toEqual(Array(4).fill({ end_user: 'header-user', tags: ['from-header'] }));
    expect(await rowsFor('body-user', 0)).toEqual([]);
  });

  it('refuses a bad end user or tags with a 400 in the client dialect naming the field or header', async () => {
    const chat = await openai().chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], user: 'x'.repeat(300) }).catch((e: unknown) => e);
    expect(chat).toMatchObject({ status: 400, error: { type: 'invalid_request_error', param: 'user', message: "Invalid 'user': must be at most 256 characters, got 300" } });
    const claude = await anthropic().messages.create({ model: 'rosetta/claude-haiku-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }], metadata: { user_id: 'a\u0000b' } }).catch((e: unknown) => e);
    expect(claude).toMatchObject({ status: 400, error: { type: 'error', error: { type: 'invalid_request_error', message: "Invalid 'metadata.user_id': must not contain control characters" } } });
    const gemini = await genai().models.generateContent({ model: 'rosetta/gemini-2.5-flash', contents: 'hi', config: { labels: { user: 'u' }, httpOptions: { headers: { 'x-rosetta-tags': 'ok,not ok' } } } }).catch((e: unknown) => e);
    expect(gemini).toMatchObject({ status: 400, message: expect.stringContaining("Invalid 'x-rosetta-tags' header") });
    const responses = await openai().responses.create({ model: 'rosetta/gpt-4o-mini', input: 'hi', metadata: { tags: ['with space'] } as never }).catch((e: unknown) => e);
    expect(responses).toMatchObject({ status: 400, error: { param: 'metadata.tags' } });
    const header = await fetch(`${a.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json', 'x-rosetta-end-user': 'jos\u00e9' },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(header.status).toBe(400);
    expect(((await header.json()) as any).error).toMatchObject({ param: 'x-rosetta-end-user' });
  });

  it('reports usage by end user and by tag, as JSON and CSV', async () => {
    const fresh = await createKey(a, 'enterprise');
    const client = new OpenAI({ apiKey: fresh.key, baseURL: `${a.url}/v1`, maxRetries: 0 });
    const ask = (user: string | undefined, tags?: string) =>
      client.chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], ...(user ? { user } : {}) }, tags ? { headers: { 'x-rosetta-tags': tags } } : {});
    await Promise.all([ask('u1', 'x,y'), ask('u1', 'x'), ask('u2'), ask(undefined, 'y')]);
    const report = async (groupBy: string) => {
      for (let i = 0; ; i++) {
        const found = await adminCall(a, 'GET', `/admin/usage?group_by=${groupBy}&key_id=${fresh.id}`);
        expect(found.status).toBe(200);
        if (found.body.totals.requests >= 4 || i >= 50) return found.body;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const byUser = await report('end_user');
    expect(byUser.group_by).toEqual(['end_user']);
    expect(byUser.data.map((row: any) => [row.end_user, row.requests]).sort()).toEqual([['u1', 2], ['u2', 1], [null, 1]].sort());
    expect(Object.keys(byUser.data[0])[0]).toBe('end_user');
    // A page at a time (decision 0034): in order, the requests without an end user last.
    const pages = [(await adminCall(a, 'GET', `/admin/usage?group_by=end_user&key_id=${fresh.id}&from=${byUser.from}&to=${byUser.to}&limit=1`)).body];
    while (pages[pages.length - 1].next_cursor) pages.push((await adminCall(a, 'GET', `/admin/usage?cursor=${pages[pages.length - 1].next_cursor}&limit=1`)).body);
    expect(pages.map((page) => page.data.map((row: any) => row.end_user))).toEqual([['u1'], ['u2'], [null]]);
    expect(pages.flatMap((page) => page.data)).toEqual(byUser.data);
    const byTag = await report('tag');
    expect(byTag.data.map((row: any) => [row.tag, row.requests])).toEqual([['x', 2], ['y', 2], [null, 1]]);
    expect(byTag.totals.requests).toBe(4);
    const byUserAndModel = await report('end_user,model');
    expect(byUserAndModel.data.map((row: any) => Object.keys(row).slice(0, 2))).toEqual(Array(3).fill(['end_user', 'served_model']));
    const csv = await fetch(`${a.url}/admin/usage?group_by=tag&key_id=${fresh.id}&format=csv`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('tag,requests,errors,input_tokens,output_tokens,cached_tokens,reasoning_tokens,cost_usd,cache_hits,saved_usd');
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 2).join(',')).sort()).toEqual([',1', 'x,2', 'y,2']);
    const both = await adminCall(a, 'GET', '/admin/usage?group_by=end_user,tag');
    expect(both).toMatchObject({ status: 400, body: { error: { param: 'group_by' } } });
    const byTagFilter = await adminCall(a, 'GET', `/admin/requests?key_id=${fresh.id}&tag=y`);
    expect(byTagFilter.body.data.map((row: any) => row.tags).sort()).toEqual([['x', 'y'], ['y']]);
  });

  it('answers hostile end users and tags (random text, huge, control characters, wrong types) with a 2xx or a 400, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(hostileAttribution, async (call) => {
        const reply = await sendRaw(a.port, { method: 'POST', path: call.path, headers: { ...call.headers, authorization: `Bearer ${key.key}`, 'x-goog-api-key': key.key, 'content-type': 'application/json' }, body: Buffer.from(call.body) });
        if (reply.status !== 200 && reply.status !== 400) throw new Error(`answered ${reply.status}: ${reply.body.slice(0, 300)}\nrequest: ${call.path} ${JSON.stringify(call.headers).slice(0, 300)} ${call.body.slice(0, 300)}`);
        if (reply.status === 400 && !/user|tags|safety_identifier|x-rosetta-end-user|x-rosetta-tags|labels|metadata/.test(reply.body)) throw new Error(`a 400 that names no attribution field: ${reply.body.slice(0, 300)}`);
      }),
      { seed: 3333, numRuns: 120 },
    );
  });

  it('holds each end user of a key to its end-user budget exactly across two replicas (402 naming it)', async () => {
    const { refused } = await endUserBudgetHolds({ a, b, sim, db }, 0.0003);
    expect(refused.error).toMatchObject({ type: 'budget_exceeded', code: 'budget_exceeded', param: 'key.end_user_budget' });
    expect(refused.error.message).toMatch(/^Budget exceeded: end user "eu-\d" of key 'per-user' has used \$0\.\d{4} of its \$0\.0003 total end-user budget/);
  });
});
