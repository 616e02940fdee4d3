import type Redis from 'ioredis';
import { BUDGET_LUA, holdsKey } from '../budget/redis-budget-store';
import type { BudgetCounter } from '../budget/budget-store';
import { RATE_WINDOW_LUA, windowResult, type ScriptReply } from '../limiter/redis-rate-limit-store';
import type { ReserveResult } from '../limiter/rate-limit-store';

/**
 * KEYS: the token window (Z, S), then each budget counter (hash, holds). ARGV: token amount, TPM,
 * window, now, reservation member, budget count, budget amount, hold id, hold ttl, then limit and
 * expiry per budget. Nothing is recorded unless everything fits: the tokens are checked first, then
 * the budgets; a refusal says which.
 */
const RESERVE = `${RATE_WINDOW_LUA}${BUDGET_LUA}
local amount = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local used = trim(now, window)
if used + amount > limit then
  local retry = -1
  if amount <= limit then retry = wait_for(amount, used, limit, window, now) end
  return {'tokens', used, wait_for(1, used, limit, window, now), window_reset(window, now), retry}
end
local n = tonumber(ARGV[6])
local refused = budget_check(3, n, ARGV[7], now, 10)
if refused then return refused end
redis.call('ZADD', z, now, ARGV[5])
used = used + amount
redis.call('SET', s, used)
touch(window)
budget_hold(3, n, ARGV[7], ARGV[8], now, tonumber(ARGV[9]), 10)
return {'held', used, wait_for(1, used, limit, window, now), window_reset(window, now), 0}
`;

/** KEYS as for RESERVE. ARGV: reservation member, actual tokens, window, now, budget count, hold id, actual nano-dollars. */
const SETTLE = `${RATE_WINDOW_LUA}${BUDGET_LUA}
settle(ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]))
budget_settle(3, tonumber(ARGV[5]), ARGV[6], ARGV[7])
return 1
`;

type JointReply = [string, number | string, number | string, number | string, number?];

type JointRedis = Redis & {
  rosettaJointReserve(...args: (string | number)[]): Promise<JointReply>;
  rosettaJointSettle(...args: (string | number)[]): Promise<number>;
};

/** A request's token window: its Redis keys, TPM, window length and reservation member. */
export interface JointTokens {
  keys: [string, string];
  units: number;
  limit: number;
  windowMs: number;
  member: string;
}

/** A request's budget hold: the counters, the amount in nano-dollars, the hold id and its expiry. */
export interface JointBudget {
  counters: BudgetCounter[];
  amount: number;
  holdId: string;
  holdTtlMs: number;
}

export type JointOutcome =
  /** Both taken: the token window after the reservation. */
  | { status: 'held'; tokens: ReserveResult }
  /** The tokens did not fit (nothing recorded). */
  | { status: 'tokens'; tokens: ReserveResult }
  /** Budget `index` cannot take the amount (nothing recorded). */
  | { status: 'refused'; index: number; spent: number; held: number }
  /** Budget `index` has never been loaded this period (nothing recorded): take the separate path, which seeds it. */
  | { status: 'unseeded'; index: number };

/**
 * A key's token reservation and its budget holds in ONE script, and their settlement in one more:
 * a budgeted key sends as many commands as a key with only token limits. The token window and the
 * budget counters live under different hash tags, so this needs one Redis server (as the gateway's
 * client is), not a Redis Cluster.
 */
export class RedisJointStore {
  private readonly redis: JointRedis;

  constructor(redis: Redis) {
    if (!('rosettaJointReserve' in redis)) {
      redis.defineCommand('rosettaJointReserve', { lua: RESERVE });
      redis.defineCommand('rosettaJointSettle', { lua: SETTLE });
    }
    this.redis = redis as JointRedis;
  }

  async reserve(tokens: JointTokens, budget: JointBudget, now: number): Promise<JointOutcome> {
    const keys = [...tokens.keys, ...budgetKeys(budget.counters)];
    const limits = budget.counters.flatMap((c) => [String(c.limit), c.expiresAt ?? 0]);
    const at = Math.floor(now);
    const reply = await this.redis.rosettaJointReserve(
      keys.length,
      ...keys,
      tokens.units,
      tokens.limit,
      tokens.windowMs,
      at,
      tokens.member,
      budget.counters.length,
      String(budget.amount),
      budget.holdId,
      budget.holdTtlMs,
      ...limits,
    );
    const [status, ...rest] = reply;
    if (status === 'refused') return { status, index: Number(rest[0]), spent: Number(rest[1]), held: Number(rest[2]) };
    if (status === 'unseeded') return { status, index: Number(rest[0]) };
    const window = windowResult([status === 'held' ? 1 : 0, ...rest.map(Number)] as ScriptReply, tokens.limit);
    if (status === 'held') return { status, tokens: { ...window, reservationId: tokens.member } };
    const retry = Number(rest[3]);
    return { status: 'tokens', tokens: retry < 0 ? window : { ...window, retryAfterMs: retry } };
  }

  async settle(tokens: JointTokens, actualTokens: number, budget: JointBudget, actualNanos: number, now: number): Promise<void> {
    const keys = [...tokens.keys, ...budgetKeys(budget.counters)];
    await this.redis.rosettaJointSettle(keys.length, ...keys, tokens.member, actualTokens, tokens.windowMs, Math.floor(now), budget.counters.length, budget.holdId, String(actualNanos));
  }
}

function budgetKeys(counters: BudgetCounter[]): string[] {
  return counters.flatMap((c) => [c.key, holdsKey(c.key)]);
}
