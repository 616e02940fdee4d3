import type { RunningSimulator } from '../../apps/simulator/src';
import { adminCall, createKey, type GatewayProcess } from './gateway-process';
import { query } from './services';

/**
 * The checks that limits and budgets are exact across two replicas, written once: the suites on
 * one Redis (limits-usage, budgets) and on a Redis Cluster or behind Sentinel (limits-redis-topologies) run the same ones.
 * Each takes two replicas on one database and one Redis topology, and a simulator they call.
 */
export interface TwoReplicas {
  a: GatewayProcess;
  b: GatewayProcess;
  sim: RunningSimulator;
  db: { url: string };
}

export function ask(gateway: GatewayProcess, key: string, body: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], ...body }),
  });
}

/**
 * Waits for a key's or team's `answered` ledger rows (status 200; each replica writes its batch
 * within a second), not for a time, and gives their number and everything the scope spent. Counting
 * refusals too let a batch of quick 402s satisfy the wait before the answers' rows were written.
 */
export async function ledgerSpend(db: { url: string }, column: 'api_key_id' | 'team_id', id: string, answered: number): Promise<{ n: number; spent: number }> {
  for (let i = 0; ; i++) {
    const [found] = await query<{ n: number; spent: string }>(
      db.url,
      `SELECT count(*) FILTER (WHERE status = 200)::int AS n, coalesce(sum(cost_usd), 0)::text AS spent FROM request_log WHERE ${column} = $1`,
      [id],
    );
    if (found!.n >= answered || i >= 100) return { n: found!.n, spent: Number(found!.spent) };
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A Free key (100 RPM) sending 130 tiny concurrent requests over both replicas gets exactly 100 through. */
export async function freeKeyGetsExactly100({ a, b }: TwoReplicas): Promise<Response[]> {
  const { key } = await createKey(a, 'free');
  const responses = await Promise.all(Array.from({ length: 130 }, (_, i) => ask(i % 2 ? a : b, key)));
  expect(responses.filter((r) => r.status === 200).length).toBe(100);
  expect(responses.filter((r) => r.status === 429).length).toBe(30);
  const remaining = responses.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining-requests')));
  expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  return responses;
}

/**
 * A TPM limit of 3,000 holds over both replicas: each request reserves its estimated prompt (8
 * tokens for "hi") plus max_tokens 500 = 508, so five fit whatever replica they land on. The
 * upstream holds each answer for a second, so nothing is settled (given back) while the burst
 * arrives; afterwards the five are settled to their real usage and the window is free again.
 */
export async function tokenLimitHolds({ a, b, sim }: TwoReplicas): Promise<void> {
  const { key } = await createKey(a, 'enterprise', { rpm: null, tpm: 3000 });
  sim.script({ match: 'hi', reply: { text: 'held', latencyMs: 1000 }, times: 5 });
  const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => ask(i % 2 ? a : b, key, { max_tokens: 500 })));
  expect(burst.filter((r) => r.status === 200).length).toBe(5);
  const refused = burst.find((r) => r.status === 429)!;
  expect((await refused.json()) as unknown).toEqual(expect.objectContaining({ error: expect.objectContaining({ type: 'rate_limit_error' }) }));
  const after = await ask(b, key, { max_tokens: 500 });
  expect(after.status).toBe(200);
  expect(Number(after.headers.get('x-ratelimit-remaining-tokens'))).toBeGreaterThan(1000);
}

/**
 * Concurrent spending on both replicas never passes a key's dollar budget: 40 at once, then one
 * at a time until refused; returns the key and the refusals for the caller's own checks.
 */
export async function keyBudgetHolds({ a, b, sim, db }: TwoReplicas, budget = 0.0005): Promise<{ id: string; key: string; refused: Response[] }> {
  const created = await adminCall(a, 'POST', '/admin/keys', { name: 'budgeted', plan: 'enterprise', budget_usd: budget, budget_period: 'day' });
  expect(created.status).toBe(201);
  const spend = { max_tokens: 100, messages: [{ role: 'user', content: 'spend a little' }] };
  sim.script({ match: 'spend a little', reply: { text: 'some words to pay for', latencyMs: 200 } });
  const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => ask(i % 2 ? a : b, created.body.key, spend)));
  const ok = responses.filter((r) => r.status === 200);
  const refused = responses.filter((r) => r.status === 402);
  expect(ok.length + refused.length).toBe(40);
  expect(ok.length).toBeGreaterThan(0);
  expect(refused.length).toBeGreaterThan(0);
  const quick = { max_tokens: 100, messages: [{ role: 'user', content: 'spend quickly' }] };
  for (let i = 0; i < 60; i++) if ((await ask(i % 2 ? a : b, created.body.key, quick)).status === 402) break;
  const spent = await ledgerSpend(db, 'api_key_id', created.body.id, ok.length);
  expect(spent.spent).toBeGreaterThan(0);
  expect(spent.spent).toBeLessThanOrEqual(budget);
  return { id: created.body.id, key: created.body.key, refused };
}

/** Two keys of one team, spending on both replicas, are held to the team's budget the same way. */
export async function teamBudgetHolds({ a, b, sim, db }: TwoReplicas, budget = 0.0004): Promise<{ teamId: string; refused: Response }> {
  const team = await adminCall(a, 'POST', '/admin/teams', { name: 'research', budget_usd: budget, budget_period: 'month' });
  expect(team.status).toBe(201);
  const one = await createKey(a, 'enterprise', { team_id: team.body.id });
  const two = await createKey(b, 'enterprise', { team_id: team.body.id });
  sim.script({ match: 'team spend', reply: { text: 'shared budget words', latencyMs: 100 } });
  const body = { max_tokens: 100, messages: [{ role: 'user', content: 'team spend' }] };
  const results = await Promise.all(Array.from({ length: 30 }, (_, i) => ask(i % 2 ? a : b, i % 3 ? one.key : two.key, body)));
  expect(results.some((r) => r.status === 402)).toBe(true);
  const refused = results.find((r) => r.status === 402)!;
  const spent = await ledgerSpend(db, 'team_id', team.body.id, results.filter((r) => r.status === 200).length);
  expect(spent.spent).toBeLessThanOrEqual(budget);
  return { teamId: team.body.id, refused };
}
