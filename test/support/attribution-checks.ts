import { createHash } from 'node:crypto';
import fc from 'fast-check';
import Redis from 'ioredis';
import { adminCall } from './gateway-process';
import { ask, type TwoReplicas } from './exactness-checks';
import { query, TEST_REDIS_URL } from './services';

const END_USERS = ['eu-0', 'eu-1', 'eu-2'];

/** The Redis counter of one end user's budget on a key without a team (BudgetService's naming); `window` `total` or `d2026-11-29`. */
export function endUserCounterKey(keyId: string, endUser: string, window = 'total'): string {
  const digest = createHash('sha256').update(endUser).digest('base64url').slice(0, 32);
  return `rosetta:budget:{k:${keyId}}:end_user:${keyId}:${digest}:${window}`;
}

interface EndUserLedger {
  n: number;
  refused: number;
  spent: number;
  nanos: number;
}

/** Each end user's answered and refused rows and spend on the ledger, once `answered` and `refused` rows of the key are there. */
async function ledgerByEndUser(db: { url: string }, keyId: string, answered: number, refused: number): Promise<Map<string, EndUserLedger>> {
  for (let i = 0; ; i++) {
    const rows = await query<{ end_user: string; n: number; refused: number; spent: string; nanos: string }>(
      db.url,
      `SELECT end_user, count(*) FILTER (WHERE status = 200)::int AS n, count(*) FILTER (WHERE status = 402)::int AS refused,
              coalesce(sum(cost_usd), 0)::text AS spent, coalesce(sum(ceil(cost_usd * 1000000000)), 0)::text AS nanos
         FROM request_log WHERE api_key_id = $1 GROUP BY end_user`,
      [keyId],
    );
    const sum = (field: 'n' | 'refused'): number => rows.reduce((total, row) => total + row[field], 0);
    if ((sum('n') >= answered && sum('refused') >= refused) || i >= 100) {
      return new Map(rows.map((row) => [row.end_user, { n: row.n, refused: row.refused, spent: Number(row.spent), nanos: Number(row.nanos) }]));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A key whose end users may each spend `budget` in total, three end users spending at once over
 * both replicas (40 concurrent requests, then one at a time until each is refused): no end user's
 * ledger spend passes the budget, each is refused with a 402 naming the end-user budget, and each
 * end user's Redis counter equals what the ledger charged it (to the nano-dollar each charge is
 * rounded up to); every refusal's row names its end user. A request without an end user is not held to it.
 */
/** What the check reads the counters with: the one Redis, or a cluster client (a counter lives on its key's master). */
export interface CounterReader {
  hmget(key: string, ...fields: string[]): Promise<(string | null)[]>;
  disconnect(): void;
}

export async function endUserBudgetHolds(
  { a, b, sim, db }: TwoReplicas,
  budget: number,
  reader: () => CounterReader = () => new Redis(TEST_REDIS_URL),
): Promise<{ refused: { error: Record<string, any> } }> {
  const created = await adminCall(a, 'POST', '/admin/keys', { name: 'per-user', plan: 'enterprise', end_user_budget_usd: budget, budget_period: 'total' });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ end_user_budget_usd: String(budget), budget_usd: null, budget_period: 'total' });
  const { id, key } = created.body as { id: string; key: string };
  sim.script({ match: 'per user spend', reply: { text: 'some words to pay for', latencyMs: 150 } });
  const spend = { max_tokens: 100, messages: [{ role: 'user', content: 'per user spend' }] };
  const as = (i: number, endUser: string) => ask(i % 2 ? a : b, key, { ...spend, user: endUser });
  const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => as(i, END_USERS[i % 3]!)));
  expect(burst.every((r) => r.status === 200 || r.status === 402)).toBe(true);
  let answered = burst.filter((r) => r.status === 200).length;
  let refusals = burst.length - answered;
  let refused: { error: Record<string, any> } | undefined;
  for (const [u, endUser] of END_USERS.entries()) {
    let status = 0;
    for (let i = 0; i < 80 && status !== 402; i++) {
      const response = await as(i + u, endUser);
      status = response.status;
      if (status === 200) answered++;
      if (status === 402) {
        refusals++;
        refused = (await response.json()) as { error: Record<string, any> };
      }
    }
    expect(status).toBe(402);
  }
  // Not subject to the end-user budget: a request that names no end user.
  expect((await ask(a, key, spend)).status).toBe(200);
  const ledger = await ledgerByEndUser(db, id, answered + 1, refusals);
  const redis = reader();
  try {
    for (const endUser of END_USERS) {
      const spent = ledger.get(endUser)!;
      expect(spent.n).toBeGreaterThan(0);
      // A refusal has its row too, with the end user it was refused for.
      expect(spent.refused).toBeGreaterThan(0);
      expect(spent.spent).toBeLessThanOrEqual(budget);
      const counter = await redis.hmget(endUserCounterKey(id, endUser), 'spent', 'held');
      expect({ spent: Number(counter[0]), held: Number(counter[1]) }).toEqual({ spent: spent.nanos, held: 0 });
    }
  } finally {
    redis.disconnect();
  }
  return { refused: refused! };
}

/** Values a tenant might put where an end user or tags go: any text (lone surrogates, controls), huge, or not text at all. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.constantFrom('', ' ', 'a\u0000b', '\ud800', 'x'.repeat(257), 'x'.repeat(100_000), 'e\u0301', '😀'.repeat(129), 'a,b', '__proto__'),
  fc.array(fc.oneof(fc.string({ maxLength: 70 }), fc.integer(), fc.constant(null)), { maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/** Header values node:http sends (visible ASCII and spaces), short or long. */
const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 300 }),
  fc.constantFrom('x'.repeat(3000), ','.repeat(3000), 'a,'.repeat(1500), ' , ', 'ok'),
);

const MESSAGES = [{ role: 'user', content: 'hi' }];

/** One chat request of a random dialect with hostile attribution in its body or headers. */
export const hostileAttribution: fc.Arbitrary<{ path: string; headers: Record<string, string>; body: string }> = fc
  .record({
    dialect: fc.constantFrom('openai', 'anthropic', 'gemini', 'openai-responses'),
    value: hostileValue,
    tags: hostileValue,
    headers: fc.record({ 'x-rosetta-end-user': headerValue, 'x-rosetta-tags': headerValue }, { requiredKeys: [] }),
  })
  .map(({ dialect, value, tags, headers }) => {
    const bodies: Record<string, { path: string; body: Record<string, unknown> }> = {
      openai: { path: '/v1/chat/completions', body: { model: 'rosetta/gpt-4o-mini', messages: MESSAGES, max_tokens: 5, user: value, safety_identifier: typeof value === 'string' ? undefined : value, metadata: { tags } } },
      anthropic: { path: '/v1/messages', body: { model: 'rosetta/claude-haiku-4-5', max_tokens: 5, messages: MESSAGES, metadata: { user_id: value, tags } } },
      gemini: { path: '/v1beta/models/rosetta/gemini-2.5-flash:generateContent', body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], labels: { user: value } } },
      'openai-responses': { path: '/v1/responses', body: { model: 'rosetta/gpt-4o-mini', input: 'hi', max_output_tokens: 16, user: value, metadata: { tags } } },
    };
    const { path, body } = bodies[dialect]!;
    return { path, headers, body: JSON.stringify(body) };
  });
