import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { keyBudgetHolds, ledgerSpend, teamBudgetHolds } from './support/exactness-checks';
import { createTestDatabase, query, startPrivateRedis, TEST_REDIS_URL } from './support/services';

/** Two replicas sharing the real PostgreSQL and Redis, charging dollar budgets of keys and teams. */
describe('teams, dollar budgets and model allow-lists across replicas', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let a: GatewayProcess;
  let b: GatewayProcess;
  const others: GatewayProcess[] = [];

  const env = () => ({
    DATABASE_URL: db.url,
    REDIS_URL: TEST_REDIS_URL,
    OPENAI_BASE_URL: `${sim.url}/v1`,
    OPENAI_API_KEY: 'sk-operator-000000000000',
    ANTHROPIC_BASE_URL: sim.url,
    ANTHROPIC_API_KEY: 'sk-ant-operator-000000',
  });

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    [a, b] = await Promise.all([startGateway(env()), startGateway(env())]);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), ...others.map((g) => g.stop())]);
    await sim?.close();
    await db?.drop();
  });

  const ask = (gateway: GatewayProcess, key: string, body: Record<string, unknown> = {}) =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', max_tokens: 100, messages: [{ role: 'user', content: 'spend a little' }], ...body }),
    });

  const ledger = (column: 'api_key_id' | 'team_id', id: string, rows: number) => ledgerSpend(db, column, id, rows);

  it('never lets concurrent spending on two replicas pass a key budget, and refuses with 402 naming it', async () => {
    const { id, refused } = await keyBudgetHolds({ a, b, sim, db }, 0.0005);
    const body = (await refused[0]!.json()) as any;
    expect(body.error).toMatchObject({ type: 'budget_exceeded', code: 'budget_exceeded' });
    expect(body.error.message).toMatch(/^Budget exceeded: key 'budgeted' has used \$0\.\d{4} of its \$0\.0005 daily budget and this request may cost up to \$0\.\d{4}; it resets at \d{4}-\d\d-\d\dT00:00:00\.000Z$/);
    const seen = await adminCall(b, 'GET', `/admin/keys/${id}`);
    expect(seen.body).toMatchObject({ budget_usd: '0.0005', budget_period: 'day', spend_period: 'day', resets_at: expect.stringMatching(/T00:00:00\.000Z$/) });
    expect(Number(seen.body.spend_usd)).toBeGreaterThan(0);
    expect(seen.body.spend_usd).not.toMatch(/e/);
  });

  it('charges two keys of one team to the team budget, which holds the same way', async () => {
    const { teamId, refused } = await teamBudgetHolds({ a, b, sim, db }, 0.0004);
    const body = (await refused.json()) as any;
    expect(body.error.message).toMatch(/^Budget exceeded: team 'research' has used .* of its \$0\.0004 monthly budget/);
    const seen = await adminCall(b, 'GET', `/admin/teams/${teamId}`);
    expect(seen.body).toMatchObject({ name: 'research', budget_usd: '0.0004', budget_period: 'month' });
  });

  it('answers 402 in each dialect, and applies a budget change made on one replica on the other', async () => {
    const key = await createKey(a, 'enterprise');
    expect((await ask(b, key.key)).status).toBe(200);
    const patched = await adminCall(a, 'PATCH', `/admin/keys/${key.id}`, { budget_usd: 0, budget_period: 'total' });
    expect(patched.status).toBe(200);
    let status = 0;
    for (let i = 0; i < 100 && status !== 402; i++) status = (await ask(b, key.key)).status;
    expect(status).toBe(402);
    const anthropic = await fetch(`${b.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key.key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rosetta/claude-haiku-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(anthropic.status).toBe(402);
    const capped = (await anthropic.json()) as any;
    expect(capped).toMatchObject({ type: 'error', error: { type: 'budget_exceeded', message: expect.stringContaining('total budget and this request may cost up to') } });
    expect(capped.error.message).not.toContain('max_tokens');
    const gemini = await fetch(`${b.url}/v1beta/models/rosetta/gpt-4o-mini:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key.key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(gemini.status).toBe(402);
    // Without max_tokens the hold is the model's whole output limit: the refusal says how to hold less.
    const uncapped = (await gemini.json()) as any;
    expect(uncapped).toMatchObject({ error: { code: 402, status: 'FAILED_PRECONDITION', type: 'budget_exceeded' } });
    expect(uncapped.error.message).toContain('(set max_tokens to hold less: without it the request holds the model\'s whole output limit)');
    // Removing the budget lifts it.
    expect((await adminCall(b, 'PATCH', `/admin/keys/${key.id}`, { budget_usd: null, budget_period: null })).status).toBe(200);
    for (let i = 0; i < 100 && status !== 200; i++) status = (await ask(a, key.key)).status;
    expect(status).toBe(200);
  });

  it('keeps a key inside its model allow-list: 403 naming the model, rosetta/auto and /v1/models inside it', async () => {
    const key = await createKey(a, 'enterprise', { models: ['rosetta/gpt-4o-mini'] });
    const other = await ask(b, key.key, { model: 'rosetta/claude-haiku-4-5' });
    expect(other.status).toBe(403);
    expect(((await other.json()) as any).error).toMatchObject({
      type: 'permission_error',
      param: 'model',
      message: "This key may not use model 'rosetta/claude-haiku-4-5'; it may use: rosetta/gpt-4o-mini",
    });
    const auto = await ask(b, key.key, { model: 'rosetta/auto' });
    expect(auto.status).toBe(200);
    expect(auto.headers.get('x-rosetta-model')).toBe('rosetta/gpt-4o-mini');
    expect(((await auto.json()) as any).model).toBe('rosetta/gpt-4o-mini');
    const listed = (await (await fetch(`${a.url}/v1/models`, { headers: { authorization: `Bearer ${key.key}` } })).json()) as any;
    expect(listed.data.map((m: any) => m.id).sort()).toEqual(['rosetta/auto', 'rosetta/gpt-4o-mini']);
    const bad = await adminCall(a, 'PATCH', `/admin/keys/${key.id}`, { models: ['rosetta/not-a-model'] });
    expect(bad.status).toBe(404);
  });

  it('tells a caller its own limits, budget, spend and models at GET /v1/key', async () => {
    const team = await adminCall(a, 'POST', '/admin/teams', { name: 'platform' });
    const created = await adminCall(a, 'POST', '/admin/keys', { name: 'mine', plan: 'pro', team_id: team.body.id, budget_usd: 5, budget_period: 'month', models: ['rosetta/gpt-4o-mini'] });
    expect((await ask(a, created.body.key)).status).toBe(200);
    const res = await fetch(`${b.url}/v1/key`, { headers: { authorization: `Bearer ${created.body.key}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({
      name: 'mine',
      plan: 'pro',
      limits: { rpm: 1000, tpm: 100000 },
      budget: { usd: '5', period: 'month', resets_at: expect.stringMatching(/-01T00:00:00\.000Z$/) },
      team: { id: team.body.id, name: 'platform', budget: null },
      models: ['rosetta/gpt-4o-mini'],
    });
    expect(Number(body.budget.spent_usd) + Number(body.budget.held_usd) + Number(body.budget.remaining_usd)).toBeCloseTo(5, 9);
    expect(JSON.stringify(body)).not.toContain(created.body.key);
  });

  it('shows the caller what each answer cost: usage.cost, the last stream chunk, x-rosetta-cost-usd, as the ledger', async () => {
    const key = await createKey(a, 'enterprise');
    const plain = await ask(a, key.key);
    const plainBody = (await plain.json()) as any;
    expect(plainBody.usage.cost).toBeGreaterThan(0);
    expect(Number(plain.headers.get('x-rosetta-cost-usd'))).toBeCloseTo(plainBody.usage.cost, 12);
    expect(plain.headers.get('x-rosetta-cost-usd')).not.toMatch(/e/);
    const streamed = await ask(b, key.key, { stream: true, stream_options: { include_usage: true } });
    const chunks = (await streamed.text()).split('\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)));
    const streamCost = chunks.at(-1).usage.cost;
    expect(streamCost).toBeGreaterThan(0);
    const anthropic = await fetch(`${a.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key.key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rosetta/claude-haiku-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(Number(anthropic.headers.get('x-rosetta-cost-usd'))).toBeGreaterThan(0);
    const ids = [plain, streamed, anthropic].map((r) => r.headers.get('x-request-id')!);
    await ledger('api_key_id', key.id, 3);
    const rows = await query<{ request_id: string; cost_usd: string }>(db.url, 'SELECT request_id, cost_usd::text FROM request_log WHERE request_id = ANY($1)', [ids]);
    const cost = new Map(rows.map((r) => [r.request_id, Number(r.cost_usd)]));
    expect(cost.get(ids[0]!)).toBeCloseTo(plainBody.usage.cost, 12);
    expect(cost.get(ids[1]!)).toBeCloseTo(streamCost, 12);
    expect(cost.get(ids[2]!)).toBeCloseTo(Number(anthropic.headers.get('x-rosetta-cost-usd')), 12);
  });

  it('refuses a key that expires in the past, and budgets without a period', async () => {
    const past = await adminCall(a, 'POST', '/admin/keys', { name: 'late', plan: 'pro', expires_at: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.error).toMatchObject({ param: 'expires_at', message: expect.stringContaining('must be in the future') });
    const half = await adminCall(a, 'POST', '/admin/keys', { name: 'half', plan: 'pro', budget_usd: 3 });
    expect(half.status).toBe(400);
    expect(half.body.error).toMatchObject({ param: 'budget_period' });
  });

  describe('Redis stopped mid-test', () => {
    let redis: { url: string; kill(): void } | undefined;

    afterAll(() => {
      redis?.kill();
    });

    it('fails closed for budgeted keys (503, nothing sent upstream) and leaves keys without budgets alone', async () => {
      redis = await startPrivateRedis(6392);
      const c = await startGateway({ ...env(), REDIS_URL: redis.url });
      others.push(c);
      const budgeted = await adminCall(c, 'POST', '/admin/keys', { name: 'closed', plan: 'enterprise', budget_usd: 10, budget_period: 'day' });
      const plain = await createKey(c, 'enterprise');
      expect((await ask(c, budgeted.body.key)).status).toBe(200);
      redis.kill();
      redis = undefined;
      const before = sim.requests().length;
      const refused = await ask(c, budgeted.body.key, { messages: [{ role: 'user', content: 'must not reach the upstream' }] });
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as any).error.message).toMatch(/Budgets cannot be checked right now/);
      expect(sim.requests().slice(before).some((r) => JSON.stringify(r.body).includes('must not reach the upstream'))).toBe(false);
      expect((await ask(c, plain.key)).status).toBe(200);
    });
  });
});
