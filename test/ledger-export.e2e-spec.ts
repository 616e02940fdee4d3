import { request, type IncomingMessage } from 'node:http';
import { adminCall, TEST_ADMIN_TOKEN } from './support/gateway-process';
import { query } from './support/services';
import { startStack, type Stack } from './support/stack';

/** GET on the gateway's admin API as a raw response, to read it at our own pace. */
function open(stack: Stack, path: string, token = TEST_ADMIN_TOKEN): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    request(`${stack.gateway.url}${path}`, { headers: { authorization: `Bearer ${token}` } }, resolve).on('error', reject).end();
  });
}

/** The whole body, as text. */
async function text(res: IncomingMessage): Promise<string> {
  let body = '';
  res.setEncoding('utf8');
  for await (const chunk of res) body += chunk as string;
  return body;
}

/** Every page of the JSON listing under `params`, in order. */
async function listed(stack: Stack, params: Record<string, string>): Promise<unknown[]> {
  const rows: unknown[] = [];
  let before: string | null = null;
  do {
    const page = await adminCall(stack.gateway, 'GET', `/admin/requests?${new URLSearchParams({ ...params, limit: '200', ...(before ? { before } : {}) }).toString()}`);
    rows.push(...page.body.data);
    before = page.body.next_cursor;
  } while (before);
  return rows;
}

/**
 * `GET /admin/requests?format=ndjson` on the compiled gateway: every matching row, one JSON object
 * per line, the same rows as the JSON listing's pages, streamed a page at a time as the client
 * reads (ARCHITECTURE §9).
 */
describe('admin API: exporting requests as NDJSON', () => {
  let stack: Stack;
  const key = '11111111-2222-4333-8444-555555555555';

  beforeAll(async () => {
    stack = await startStack();
    // 1,300 rows across three keys, every 13th an error: more than two of the export's pages.
    await query(
      stack.db.url,
      `INSERT INTO request_log (request_id, api_key_id, dialect, requested_model, served_model, provider, status, latency_ms, streamed, created_at, cost_usd)
       SELECT 'req_x' || lpad(i::text, 12, '0'), CASE WHEN i % 3 = 0 THEN $1::uuid END, 'openai', 'rosetta/gpt-4o-mini', 'rosetta/gpt-4o-mini', 'openai',
              CASE WHEN i % 13 = 0 THEN 502 ELSE 200 END, 10, false, '2026-11-20T00:00:00Z'::timestamptz + i * interval '1 second', 0.000001 * i
         FROM generate_series(1, 1300) i`,
      [key],
    );
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('streams every matching row, one JSON object per line, the same as the listing pages, filters applied', async () => {
    const res = await open(stack, '/admin/requests?format=ndjson&since=2026-11-20&until=2026-11-21');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const body = await text(res);
    expect(body.endsWith('}\n')).toBe(true);
    const rows = body.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows).toHaveLength(1300);
    expect(rows).toEqual(await listed(stack, { since: '2026-11-20', until: '2026-11-21' }));

    const errors = (await text(await open(stack, `/admin/requests?format=ndjson&key_id=${key}&status=error`))).trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(errors.map((row) => row.request_id)).toEqual(Array.from({ length: 33 }, (_, i) => `req_x${String(1287 - 39 * i).padStart(12, '0')}`));
    expect(errors).toEqual(await listed(stack, { key_id: key, status: 'error' }));

    // Nothing matches: an empty body, still a clean 200.
    const none = await open(stack, '/admin/requests?format=ndjson&since=2020-01-01&until=2020-01-02');
    expect([none.statusCode, await text(none)]).toEqual([200, '']);
  });

  it('refuses a page size or cursor with an export, and anyone without the admin token', async () => {
    expect(await adminCall(stack.gateway, 'GET', '/admin/requests?format=ndjson&limit=10')).toEqual({
      status: 400,
      body: expect.objectContaining({ error: expect.objectContaining({ param: 'limit' }) }),
    });
    const denied = await open(stack, '/admin/requests?format=ndjson', 'not-the-admin-token-000000');
    expect(denied.statusCode).toBe(401);
    await text(denied);
  });

  it('reads the ledger as the client reads the export: a row written after the first line came is still in it', async () => {
    // 120,000 rows, well beyond what the sockets between us can hold unread.
    await query(
      stack.db.url,
      `INSERT INTO request_log (request_id, dialect, requested_model, served_model, provider, status, latency_ms, streamed, created_at)
       SELECT 'req_big' || lpad(i::text, 9, '0'), 'openai', 'rosetta/gpt-4o-mini', 'rosetta/gpt-4o-mini', 'openai', 200, 10, false,
              '2026-10-10T00:00:00Z'::timestamptz + i * interval '1 second'
         FROM generate_series(1, 120000) i`,
    );
    const res = await open(stack, '/admin/requests?format=ndjson&since=2026-10-01&until=2026-11-01');
    res.setEncoding('utf8');
    const chunks = res[Symbol.asyncIterator]();
    const first = (await chunks.next()).value as string;
    expect(first.startsWith('{"request_id":"req_big000120000"')).toBe(true);
    // The oldest row of all, written now: a buffered export was read before it existed.
    await query(
      stack.db.url,
      `INSERT INTO request_log (request_id, dialect, status, latency_ms, streamed, created_at) VALUES ('req_written_late', 'openai', 200, 1, false, '2026-10-01T00:00:00Z')`,
    );
    let body = first;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) body += next.value as string;
    const lines = body.trimEnd().split('\n');
    expect(lines).toHaveLength(120_001);
    expect(body.length).toBeGreaterThan(60 * 1024 ** 2);
    expect(JSON.parse(lines.at(-1)!)).toEqual(expect.objectContaining({ request_id: 'req_written_late', created_at: '2026-10-01T00:00:00.000Z' }));
  });
});
