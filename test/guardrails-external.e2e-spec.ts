import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import OpenAI from 'openai';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase, query, TEST_REDIS_URL } from './support/services';

/**
 * Webhook and model guardrail checks (issue 31, decisions 0030 and 0031) through the gateway: the
 * operator's DLP endpoint on loopback (allowed by WEBHOOK_ALLOW_HOSTS) and a guard model served
 * by the simulator, called with the official openai SDK. What the check was sent, what the
 * upstream was sent, what the client got, and the ledger row.
 */
describe('webhook and model guardrail checks', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess;
  let dlp: Server;
  let dlpUrl: string;
  const seen: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    // Redacts every "Alice Smith" as a name, blocks any text with "classified", allows the rest.
    dlp = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const asked = JSON.parse(body) as { text: string };
        seen.push(asked);
        const spans = [...asked.text.matchAll(/Alice Smith/g)].map((m) => ({ start: m.index, end: m.index + m[0].length, kind: 'name' }));
        const verdict = asked.text.includes('classified') ? { action: 'block' } : spans.length > 0 ? { action: 'redact', spans } : { action: 'allow' };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(verdict));
      });
    });
    await new Promise<void>((resolve) => dlp.listen(0, '127.0.0.1', resolve));
    dlpUrl = `http://127.0.0.1:${(dlp.address() as AddressInfo).port}/check`;
    gateway = await startGateway({ DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-operator-000000000000', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
    const guards = await adminCall(gateway, 'PUT', '/admin/providers/guards', {
      protocol: 'openai',
      base_url: `${sim.url}/v1`,
      api_key_env: 'OPENAI_API_KEY',
      endpoints: [{ model: 'rosetta/sim-guard', upstream_model: 'sim-guard', context_length: 8000, max_completion_tokens: 1000, pricing: { prompt: '0.000001', completion: '0.000004' } }],
    });
    expect(guards.status).toBe(200);
  });

  afterAll(async () => {
    await gateway?.stop();
    await new Promise((resolve) => dlp?.close(resolve));
    await sim?.close();
    await db?.drop();
  });

  const client = (key: string) => new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  const ask = (key: string, content: string) => client(key).chat.completions.create({ model: 'rosetta/gpt-4o-mini', max_tokens: 20, messages: [{ role: 'user', content }] });
  const upstreamBodiesWith = (marker: string): string[] => sim.requests().map((r) => JSON.stringify(r.body)).filter((body) => body.includes(marker) && !body.includes('sim-guard'));
  const refusal = (error: unknown) => (error instanceof OpenAI.APIError ? { status: error.status, type: (error.error as { type?: string } | undefined)?.type, message: error.message } : { error: String(error) });

  async function rowsOf(keyId: string, count: number): Promise<Array<{ status: number; error_type: string | null; cost_usd: string }>> {
    for (let i = 0; ; i++) {
      const rows = await query<{ status: number; error_type: string | null; cost_usd: string }>(db.url, 'SELECT status, error_type, cost_usd::text FROM request_log WHERE api_key_id = $1 ORDER BY created_at', [keyId]);
      if (rows.length >= count) return rows;
      if (i >= 200) throw new Error('ledger rows missing');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function rowOf(keyId: string): Promise<{ status: number; error_type: string | null; cost_usd: string; guardrails: Array<Record<string, unknown>> }> {
    for (let i = 0; ; i++) {
      const rows = await query<{ status: number; error_type: string | null; cost_usd: string; guardrails: Array<Record<string, unknown>> }>(db.url, 'SELECT status, error_type, cost_usd::text, guardrails FROM request_log WHERE api_key_id = $1', [keyId]);
      if (rows.length > 0) return rows[0]!;
      if (i >= 200) throw new Error('no ledger row');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("redacts the spans the operator's webhook names before the upstream sees them", async () => {
    const key = await createKey(gateway, 'pro', { guardrails: [{ check: 'webhook', on: 'input', action: 'redact', url: dlpUrl, timeout_ms: 2000, fail: 'closed' }] });
    const marker = `webhook-redact-${Date.now()}`;
    const answer = await ask(key.key, `${marker}: write to Alice Smith today`);
    expect(answer.choices[0]!.message.content).toBeTruthy();
    expect(seen.find((s) => String(s['text']).includes(marker))).toEqual({ stage: 'input', text: expect.stringContaining(`${marker}: write to Alice Smith today`), request_id: expect.stringMatching(/^req_/), key_id: key.id });
    const sent = upstreamBodiesWith(marker);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain(`${marker}: write to [REDACTED:name] today`);
    expect(sent[0]).not.toContain('Alice Smith');
    expect((await rowOf(key.id)).guardrails).toEqual([expect.objectContaining({ check: 'webhook', stage: 'input', action: 'redact' })]);
  });

  it("blocks what the webhook blocks, and applies the check's fail choice when the webhook cannot answer", async () => {
    const blocking = await createKey(gateway, 'pro', { guardrails: [{ check: 'webhook', on: 'input', action: 'block', url: dlpUrl, timeout_ms: 2000, fail: 'open' }] });
    const marker = `webhook-block-${Date.now()}`;
    const blocked = await ask(blocking.key, `${marker} the classified plans`).then(() => 'answered', refusal);
    expect(blocked).toEqual({ status: 400, type: 'guardrail_violation', message: expect.not.stringContaining('classified') });
    expect(upstreamBodiesWith(marker)).toEqual([]);
    expect(await rowOf(blocking.id)).toMatchObject({ status: 400, error_type: 'guardrail_violation', guardrails: [expect.objectContaining({ check: 'webhook', action: 'block' })] });

    // Nothing listens on port 9: unreachable, so `fail` decides.
    const down = 'http://127.0.0.1:9/check';
    const closed = await createKey(gateway, 'pro', { guardrails: [{ check: 'webhook', on: 'input', action: 'block', url: down, timeout_ms: 1000, fail: 'closed' }] });
    expect(await ask(closed.key, 'fail closed').then(() => 'answered', refusal)).toMatchObject({ status: 400, type: 'guardrail_violation' });
    const open = await createKey(gateway, 'pro', { guardrails: [{ check: 'webhook', on: 'input', action: 'block', url: down, timeout_ms: 1000, fail: 'open' }] });
    expect((await ask(open.key, 'fail open')).choices[0]!.message.content).toBeTruthy();
    expect((await rowOf(open.id)).status).toBe(200);
  });

  it('blocks with a guard model from the registry, and charges its call on the request', async () => {
    const key = await createKey(gateway, 'pro', { guardrails: [{ check: 'model', on: 'input', action: 'block', model: 'rosetta/sim-guard' }] });
    const blocked = await ask(key.key, 'explain sim-violence in detail').then(() => 'answered', refusal);
    expect(blocked).toEqual({ status: 400, type: 'guardrail_violation', message: expect.not.stringContaining('sim-violence') });
    const row = await rowOf(key.id);
    expect(row).toMatchObject({ status: 400, error_type: 'guardrail_violation', guardrails: [expect.objectContaining({ check: 'model', action: 'block' })] });
    // The classification was paid for: its cost is on the request's row.
    expect(Number(row.cost_usd)).toBeGreaterThan(0);

    const allowed = await createKey(gateway, 'pro', { guardrails: [{ check: 'model', on: 'input', action: 'block', model: 'rosetta/sim-guard' }] });
    expect((await ask(allowed.key, 'a kind question')).choices[0]!.message.content).toBeTruthy();
    const answered = await rowOf(allowed.id);
    expect({ status: answered.status, guardrails: answered.guardrails }).toEqual({ status: 200, guardrails: null });
    expect(Number(answered.cost_usd)).toBeGreaterThan(0);
  });

  it("charges a blocking model check's cost to the key's, team's and end user's budgets, as the ledger says", async () => {
    const team = await adminCall(gateway, 'POST', '/admin/teams', { name: `guarded-budget-${Date.now()}`, budget_usd: 10, budget_period: 'total' });
    const key = await createKey(gateway, 'pro', {
      team_id: team.body.id,
      budget_usd: 10,
      end_user_budget_usd: 10,
      budget_period: 'total',
      guardrails: [{ check: 'model', on: 'input', action: 'block', model: 'rosetta/sim-guard' }],
    });
    const asEve = (content: string) =>
      client(key.key).chat.completions.create({ model: 'rosetta/gpt-4o-mini', max_tokens: 20, messages: [{ role: 'user', content }] }, { headers: { 'x-rosetta-end-user': 'eve' } });
    // An answered request first: every counter is loaded (seeded from the ledger) and charged by its hold.
    await asEve('a kind question');
    expect(await asEve('explain sim-weapons').then(() => 'answered', refusal)).toMatchObject({ status: 400, type: 'guardrail_violation' });
    const rows = await rowsOf(key.id, 2);
    expect(rows.map((r) => [r.status, r.error_type])).toEqual([[200, null], [400, 'guardrail_violation']]);
    expect(Number(rows[1]!.cost_usd)).toBeGreaterThan(0);
    const ledger = rows.reduce((sum, r) => sum + Number(r.cost_usd), 0);
    // The blocked request held nothing (it never reached admission); its check's cost is charged all the same.
    const mine = (await (await fetch(`${gateway.url}/v1/key`, { headers: { authorization: `Bearer ${key.key}` } })).json()) as { budget: { spent_usd: string; held_usd: string }; team: { budget: { spent_usd: string } } };
    expect(Number(mine.budget.spent_usd)).toBeCloseTo(ledger, 8);
    expect(Number(mine.budget.held_usd)).toBe(0);
    expect(Number(mine.team.budget.spent_usd)).toBeCloseTo(ledger, 8);
    const digest = createHash('sha256').update('eve').digest('base64url').slice(0, 32);
    const redis = new Redis(TEST_REDIS_URL);
    const endUserSpent = await redis.hget(`rosetta:budget:{t:${team.body.id}}:end_user:${key.id}:${digest}:total`, 'spent').finally(() => redis.disconnect());
    expect(Number(endUserSpent) / 1e9).toBeCloseTo(ledger, 8);
  });
});
