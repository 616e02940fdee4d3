import { adminCall } from './support/gateway-process';
import { query } from './support/services';
import { startStack, type Stack } from './support/stack';

interface Row {
  id: string;
  at: string;
  key?: string | null;
  team?: string | null;
  requested?: string;
  served?: string | null;
  status?: number;
}

/**
 * `GET /admin/requests` against the compiled gateway and real PostgreSQL: keyset pages that hold
 * still while new rows arrive, every filter, and 400s that name the parameter. Rows are written
 * into the ledger directly where the test needs exact times (ties included), and by real calls
 * where it checks what the gateway itself records.
 */
describe('admin API: listing requests', () => {
  let stack: Stack;
  let keyId: string;
  let keySecret: string;
  let teamId: string;

  const list = async (params: Record<string, string> = {}) => adminCall(stack.gateway, 'GET', `/admin/requests?${new URLSearchParams(params).toString()}`);
  const ids = (body: { data: Array<{ request_id: string }> }): string[] => body.data.map((row) => row.request_id);
  const insert = (rows: Row[]) =>
    query(
      stack.db.url,
      `INSERT INTO request_log (request_id, api_key_id, team_id, dialect, requested_model, served_model, provider, status, latency_ms, streamed, created_at, cost_usd, input_tokens, output_tokens)
       SELECT r->>'id', (r->>'key')::uuid, (r->>'team')::uuid, 'openai', r->>'requested', r->>'served', 'openai', (r->>'status')::int, 120, false, (r->>'at')::timestamptz, 0.000027, 10, 5
         FROM jsonb_array_elements($1::jsonb) r`,
      [JSON.stringify(rows.map((row) => ({ key: null, team: null, requested: 'rosetta/gpt-4o-mini', served: row.served === undefined ? row.requested ?? 'rosetta/gpt-4o-mini' : row.served, status: 200, ...row })))],
    );
  /** `req_` and 16 characters, like the gateway's own ids, sorting as `n` does. */
  const rid = (prefix: string, n: number): string => `req_${prefix}${String(n).padStart(16 - prefix.length, '0')}`;

  beforeAll(async () => {
    stack = await startStack();
    teamId = (await adminCall(stack.gateway, 'POST', '/admin/teams', { name: 'research' })).body.id;
    const key = (await adminCall(stack.gateway, 'POST', '/admin/keys', { name: 'ci-bot', plan: 'enterprise', team_id: teamId })).body;
    [keyId, keySecret] = [key.id, key.key];
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('pages newest first without duplicates or gaps while new rows arrive, ties on the same instant included', async () => {
    // 130 rows, three to each millisecond (ties broken by id), in 2026-01-01.
    const old = Array.from({ length: 130 }, (_, i) => ({ id: rid('p', i), at: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 3)).toISOString() }));
    await insert(old);
    const expected = old.map((row) => row.id).reverse();

    const first = await list({ limit: '50' });
    expect(first.status).toBe(200);
    expect(ids(first.body)).toEqual(expected.slice(0, 50));
    expect(first.body.next_cursor).toEqual(expect.any(String));

    // Rows arrive between pages: newer ones, and one at the very instant the first page ended on.
    const edge = old[80]!; // the last row of the first page
    await insert([
      ...Array.from({ length: 20 }, (_, i) => ({ id: rid('n', i), at: new Date(Date.UTC(2026, 0, 2) + i).toISOString() })),
      { id: rid('q', 1), at: edge.at },
    ]);
    const second = await list({ limit: '50', before: first.body.next_cursor });
    const third = await list({ limit: '50', before: second.body.next_cursor });
    expect(third.body.next_cursor).toBeNull();
    const seen = [...ids(first.body), ...ids(second.body), ...ids(third.body)];
    // The new row at the edge sorts after the edge's own id ('q' > 'p'): newer than the cursor, so not shown.
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);
    // A fresh first page starts with the new rows; the one at the edge's instant sorts just before the edge.
    const fresh = ids((await list({ limit: '200' })).body);
    expect(fresh.slice(0, 21)).toEqual([...Array.from({ length: 20 }, (_, i) => rid('n', 19 - i)), rid('p', 129)]);
    expect(fresh.slice(fresh.indexOf(edge.id) - 1, fresh.indexOf(edge.id) + 1)).toEqual([rid('q', 1), edge.id]);
    // Default page size 50.
    expect((await list()).body.data).toHaveLength(50);
  });

  it('shows what the gateway recorded for a real call, the key and team by name, the cost as a decimal string', async () => {
    const res = await fetch(`${stack.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keySecret}`, 'content-type': 'application/json', 'x-request-id': 'my-own-id-1' },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    // Listed at once: the list writes this replica's pending rows first.
    const page = await list({ key_id: keyId });
    expect(page.body.data).toEqual([
      expect.objectContaining({
        request_id: requestId,
        client_request_id: 'my-own-id-1',
        api_key_id: keyId,
        key_name: 'ci-bot',
        team_id: teamId,
        team_name: 'research',
        dialect: 'openai',
        requested_model: 'rosetta/gpt-4o-mini',
        served_model: 'rosetta/gpt-4o-mini',
        provider: 'openai',
        status: 200,
        error_type: null,
        streamed: false,
        cost_usd: expect.stringMatching(/^\d+(\.\d+)?$/),
        latency_ms: expect.any(Number),
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
      }),
    ]);
    expect(Date.parse(page.body.data[0].created_at)).not.toBeNaN();
    expect(page.body.next_cursor).toBeNull();
    // The same row as the lookup by id answers.
    expect((await adminCall(stack.gateway, 'GET', `/admin/requests/${requestId}`)).body).toEqual(page.body.data[0]);
  });

  it('filters by key, team, model (requested or served), status and time', async () => {
    const at = (minute: number): string => new Date(Date.UTC(2026, 1, 1, 0, minute)).toISOString();
    await insert([
      { id: rid('f', 1), at: at(1), key: keyId, team: teamId, requested: 'rosetta/auto', served: 'rosetta/claude-haiku' },
      { id: rid('f', 2), at: at(2), key: keyId, team: teamId, requested: 'rosetta/claude-haiku', status: 429 },
      { id: rid('f', 3), at: at(3), requested: 'rosetta/claude-haiku', served: null, status: 502 },
      { id: rid('f', 4), at: at(4), requested: 'rosetta/gpt-4o', status: 500 },
    ]);
    const window = { since: '2026-02-01', until: '2026-02-01T00:10:00Z' };
    expect(ids((await list(window)).body)).toEqual([rid('f', 4), rid('f', 3), rid('f', 2), rid('f', 1)]);
    expect(ids((await list({ ...window, key_id: keyId })).body)).toEqual([rid('f', 2), rid('f', 1)]);
    expect(ids((await list({ ...window, team_id: teamId })).body)).toEqual([rid('f', 2), rid('f', 1)]);
    // Served as, asked for and served as, and asked for but never served.
    expect(ids((await list({ ...window, model: 'rosetta/claude-haiku' })).body)).toEqual([rid('f', 3), rid('f', 2), rid('f', 1)]);
    expect(ids((await list({ ...window, model: 'rosetta/auto' })).body)).toEqual([rid('f', 1)]);
    expect(ids((await list({ ...window, status: 'error' })).body)).toEqual([rid('f', 4), rid('f', 3), rid('f', 2)]);
    expect(ids((await list({ ...window, status: '429' })).body)).toEqual([rid('f', 2)]);
    expect(ids((await list({ ...window, status: '200', model: 'rosetta/claude-haiku' })).body)).toEqual([rid('f', 1)]);
    expect(ids((await list({ since: '2026-02-01T00:02:00Z', until: '2026-02-01T00:04:00Z' })).body)).toEqual([rid('f', 3), rid('f', 2)]);
    // A model filter pages like the rest.
    const one = await list({ ...window, model: 'rosetta/claude-haiku', limit: '2' });
    expect(ids(one.body)).toEqual([rid('f', 3), rid('f', 2)]);
    expect(ids((await list({ ...window, model: 'rosetta/claude-haiku', limit: '2', before: one.body.next_cursor })).body)).toEqual([rid('f', 1)]);
  });

  it('refuses parameters it cannot use with a 400 that names them', async () => {
    const refusal = async (params: Record<string, string>) => {
      const res = await list(params);
      expect(res.status).toBe(400);
      return { param: res.body.error.param, message: res.body.error.message };
    };
    await expect(refusal({ limit: '500' })).resolves.toEqual({ param: 'limit', message: "Invalid 'limit': must be a whole number from 1 to 200, got '500'" });
    await expect(refusal({ before: 'abc!' })).resolves.toEqual({ param: 'before', message: "Invalid 'before': must be the next_cursor of a previous page, got 'abc!'" });
    await expect(refusal({ key_id: 'ci-bot' })).resolves.toMatchObject({ param: 'key_id' });
    await expect(refusal({ team_id: '42' })).resolves.toMatchObject({ param: 'team_id' });
    await expect(refusal({ status: 'errors' })).resolves.toMatchObject({ param: 'status' });
    await expect(refusal({ since: 'last week' })).resolves.toMatchObject({ param: 'since' });
    await expect(refusal({ until: '2026-13-01' })).resolves.toMatchObject({ param: 'until' });
    await expect(refusal({ sort: 'asc' })).resolves.toMatchObject({ param: 'sort' });
    expect((await fetch(`${stack.gateway.url}/admin/requests`)).status).toBe(401);
  });
});
