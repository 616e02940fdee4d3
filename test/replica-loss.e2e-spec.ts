import Redis from 'ioredis';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { endUserCounterKey } from './support/attribution-checks';
import { ask } from './support/exactness-checks';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { waitUntil } from './support/redis-servers';
import { createTestDatabase, query, TEST_REDIS_URL } from './support/services';

interface LedgerRow {
  request_id: string;
  client_request_id: string | null;
  status: number;
  error_type: string | null;
  cost_usd: string;
  streamed: boolean;
  served_model: string | null;
  end_user: string | null;
  tags: string[] | null;
  guardrails: unknown;
}

/**
 * A replica killed with SIGKILL mid-request (ARCHITECTURE §9): the requests it had admitted and
 * not written to the ledger are found from what it kept in Redis by the surviving replica, within
 * 30 seconds, and recorded once — `interrupted`, at the reserved cost, with the caller's request id
 * — and their budget holds are charged at that cost and released.
 */
describe('a replica lost without warning', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let victim: GatewayProcess;
  let survivor: GatewayProcess;

  beforeAll(async () => {
    [sim, db] = await Promise.all([startSimulator(), createTestDatabase()]);
    const env = { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-operator-000000000000' };
    [victim, survivor] = await Promise.all([startGateway(env), startGateway(env)]);
  });

  afterAll(async () => {
    await Promise.all([victim?.stop(), survivor?.stop()]);
    await sim?.close();
    await db?.drop();
  });

  const rows = (ids: string[]) =>
    query<LedgerRow>(db.url, 'SELECT request_id, client_request_id, status, error_type, cost_usd::text, streamed, served_model, end_user, tags, guardrails FROM request_log WHERE client_request_id = ANY($1) ORDER BY client_request_id', [ids]);

  it('records its in-flight requests once, as interrupted at the reserved cost, and charges their budget holds', async () => {
    // Its end user's budget too (decision 0033): the hold's counters include the end user's.
    const budgeted = await adminCall(survivor, 'POST', '/admin/keys', { name: 'held', plan: 'enterprise', budget_usd: 5, end_user_budget_usd: 4, budget_period: 'day' });
    const day = `d${new Date().toISOString().slice(0, 10)}`;
    const unlimited = await createKey(survivor, 'enterprise');
    // Its input stage's verdicts too: they are known at admission, so kept in the in-flight record.
    const guarded = await createKey(survivor, 'enterprise', { guardrails: [{ check: 'pii', on: 'input', action: 'log', kinds: ['email'] }] });
    // Answered before the loss: one row as answered (written by the replica, or by the survivor
    // from the row the replica kept while its batch waited), never an interrupted one as well.
    const done = await fetch(`${victim.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${unlimited.key}`, 'content-type': 'application/json', 'x-request-id': 'loss-done' },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(done.status).toBe(200);
    // A stream that will not end while the replica lives: two tokens a second of a long answer.
    sim.script({ match: 'slow answer', reply: { text: 'word '.repeat(400), tokensPerSecond: 2 } });
    const seen = sim.requests().length;
    const inFlight = [budgeted.body.key, guarded.key, budgeted.body.key].map((key, i) =>
      fetch(`${victim.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': `loss-${i}`, 'x-rosetta-end-user': 'eve', 'x-rosetta-tags': 'batch' },
        body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', stream: true, max_tokens: 1_000, messages: [{ role: 'user', content: 'slow answer for ann@corp.example' }] }),
      }).then(
        async (res) => (res.status === 200 && (await res.text().then(() => 'whole', () => 'cut'))) || res.status,
        () => 'cut',
      ),
    );
    await waitUntil('the upstream has all three', async () => sim.requests().length >= seen + 3);
    victim.process.kill('SIGKILL');
    // Each is cut with the replica (before or after its status line went out).
    expect(await Promise.all(inFlight)).toEqual(['cut', 'cut', 'cut']);

    const ids = ['loss-0', 'loss-1', 'loss-2', 'loss-done'];
    await waitUntil('the survivor records them', async () => (await rows(ids)).length === 4, 30_000);
    const found = await rows(ids);
    expect(found.map((r) => [r.client_request_id, r.status, r.error_type, r.streamed, r.end_user, r.tags, r.guardrails])).toEqual([
      ['loss-0', 502, 'interrupted', true, 'eve', ['batch'], null],
      ['loss-1', 502, 'interrupted', true, 'eve', ['batch'], [{ check: 'pii', source: 'key', index: 0, stage: 'input', action: 'log', kinds: ['email'] }]],
      ['loss-2', 502, 'interrupted', true, 'eve', ['batch'], null],
      ['loss-done', 200, null, false, null, null, null],
    ]);
    // The reserved cost: the most each could cost (1,000 output tokens of gpt-4o-mini and the prompt).
    for (const row of found.slice(0, 3)) expect(Number(row.cost_usd)).toBeGreaterThanOrEqual(1_000 * 0.6e-6);
    // The budget was charged exactly what the ledger says, and holds nothing any more.
    const budgetedRows = found.filter((r) => r.client_request_id === 'loss-0' || r.client_request_id === 'loss-2');
    const charged = budgetedRows.reduce((sum, r) => sum + Number(r.cost_usd), 0);
    const key = await adminCall(survivor, 'GET', `/admin/keys/${budgeted.body.id}`);
    expect(Number(key.body.spend_usd)).toBeCloseTo(charged, 9);
    expect(Number(key.body.remaining_usd)).toBeCloseTo(5 - charged, 9);
    const redis = new Redis(TEST_REDIS_URL);
    const [spent, held] = await redis.hmget(endUserCounterKey(budgeted.body.id, 'eve', day), 'spent', 'held').finally(() => redis.disconnect());
    expect(Number(held)).toBe(0);
    expect(Number(spent) / 1e9).toBeCloseTo(charged, 8);
    // The survivor keeps serving, and says what it recovered.
    expect((await ask(survivor, unlimited.key)).status).toBe(200);
    expect(survivor.output()).toMatch(/recorded the in-flight requests of a replica that died/);
  }, 60_000);
});
