import type { RedisClient } from '@rosetta/platform';
import type { BudgetCounter, BudgetStore, ReserveOutcome } from './budget-store';

/**
 * Budget counters in Redis, shared by every replica. Per counter two keys: a hash (`spent`,
 * `held`, and `h:<hold id>` per hold) and a sorted set of hold ids scored by their expiry. Every
 * counter carries the admission tag of the key being admitted (the team's, for a key in one), so
 * a key's and its team's counters and its rate windows are checked in one script on a cluster too. Amounts travel as decimal strings and are added with HINCRBY, never formatted by
 * Lua, so nano-dollar integers stay exact.
 */
export const BUDGET_KEY_PREFIX = 'rosetta:budget:';

/**
 * Functions over budget counters laid out from KEYS[first]: counter i (1-based) is the hash
 * KEYS[first + 2i - 2] and its holds set KEYS[first + 2i - 1]; its limit and expiry (epoch ms, 0
 * for none) are ARGV[arg + 2i - 2] and ARGV[arg + 2i - 1]. The joint admission script
 * (joint-admission-store.ts) uses them after the token window's keys.
 */
export const BUDGET_LUA = `
-- nil when every counter can take 'amount'; else {'refused'|'unseeded', index (0-based), spent, held}
local function budget_check(first, n, amount, now, arg)
  for i = 1, n do
    local h = KEYS[first + 2 * i - 2]
    local holds = KEYS[first + 2 * i - 1]
    if redis.call('HEXISTS', h, 'spent') == 0 then return {'unseeded', i - 1, '0', '0'} end
    local expired = redis.call('ZRANGEBYSCORE', holds, '-inf', now)
    for _, hid in ipairs(expired) do
      local held = redis.call('HGET', h, 'h:' .. hid)
      if held then
        redis.call('HINCRBY', h, 'held', '-' .. held)
        redis.call('HDEL', h, 'h:' .. hid)
      end
      redis.call('ZREM', holds, hid)
    end
    local spent = redis.call('HGET', h, 'spent')
    local held = redis.call('HGET', h, 'held') or '0'
    if tonumber(spent) + tonumber(held) + tonumber(amount) > tonumber(ARGV[arg + 2 * i - 2]) then
      return {'refused', i - 1, spent, held}
    end
  end
  return nil
end

local function budget_hold(first, n, amount, id, now, ttl, arg)
  for i = 1, n do
    local h = KEYS[first + 2 * i - 2]
    local holds = KEYS[first + 2 * i - 1]
    redis.call('HINCRBY', h, 'held', amount)
    redis.call('HSET', h, 'h:' .. id, amount)
    redis.call('ZADD', holds, now + ttl, id)
    local expires = tonumber(ARGV[arg + 2 * i - 1])
    if expires > 0 then
      redis.call('PEXPIREAT', h, expires)
      redis.call('PEXPIREAT', holds, expires)
    end
  end
end

-- replaces hold 'id' by 'actual' (charged even when the hold had expired); returns each
-- counter's spend after the charge (-1 for a counter gone unseeded), for the threshold alerts
local function budget_settle(first, n, id, actual)
  local after = {}
  for i = 1, n do
    local h = KEYS[first + 2 * i - 2]
    local holds = KEYS[first + 2 * i - 1]
    local held = redis.call('HGET', h, 'h:' .. id)
    if held then
      redis.call('HINCRBY', h, 'held', '-' .. held)
      redis.call('HDEL', h, 'h:' .. id)
      redis.call('ZREM', holds, id)
    end
    if redis.call('HEXISTS', h, 'spent') == 1 then after[i] = redis.call('HINCRBY', h, 'spent', actual) else after[i] = -1 end
  end
  return after
end
`;

/** ARGV: n, amount, hold id, now, hold ttl, then limit and expiry per counter. */
const RESERVE = `${BUDGET_LUA}
local n = tonumber(ARGV[1])
local now = tonumber(ARGV[4])
local refused = budget_check(1, n, ARGV[2], now, 6)
if refused then return refused end
budget_hold(1, n, ARGV[2], ARGV[3], now, tonumber(ARGV[5]), 6)
return {'held', 0, '0', '0'}
`;

/** ARGV: n, hold id, actual. Answers each counter's spend after the charge. */
const SETTLE = `${BUDGET_LUA}
return budget_settle(1, tonumber(ARGV[1]), ARGV[2], ARGV[3])
`;

/**
 * Charges a hold found after its replica died: like SETTLE, but only on counters that still hold
 * it (one settled, or expired, before the replica died is not charged again). ARGV: n, hold id,
 * actual.
 */
const RECOVER = `
for i = 1, tonumber(ARGV[1]) do
  local h = KEYS[2 * i - 1]
  local held = redis.call('HGET', h, 'h:' .. ARGV[2])
  if held then
    redis.call('HINCRBY', h, 'held', '-' .. held)
    redis.call('HDEL', h, 'h:' .. ARGV[2])
    redis.call('ZREM', KEYS[2 * i], ARGV[2])
    if redis.call('HEXISTS', h, 'spent') == 1 then redis.call('HINCRBY', h, 'spent', ARGV[3]) end
  end
end
return 1
`;

const SEED = `
if redis.call('HSETNX', KEYS[1], 'spent', ARGV[1]) == 1 then
  redis.call('HSETNX', KEYS[1], 'held', '0')
  local expires = tonumber(ARGV[2])
  if expires > 0 then redis.call('PEXPIREAT', KEYS[1], expires) end
end
return 1
`;

type BudgetRedis = RedisClient & {
  budgetReserve(...args: (string | number)[]): Promise<[string, number, string, string]>;
  budgetSettle(...args: (string | number)[]): Promise<number[]>;
  budgetSeed(key: string, spent: string, expires: number): Promise<number>;
  budgetRecover(...args: (string | number)[]): Promise<number>;
};

export function holdsKey(key: string): string {
  return `${key}:holds`;
}

export class RedisBudgetStore implements BudgetStore {
  private readonly redis: BudgetRedis;

  constructor(redis: RedisClient) {
    if (!('budgetReserve' in redis)) {
      redis.defineCommand('budgetReserve', { lua: RESERVE });
      redis.defineCommand('budgetSettle', { lua: SETTLE });
      redis.defineCommand('budgetSeed', { numberOfKeys: 1, lua: SEED });
      redis.defineCommand('budgetRecover', { lua: RECOVER });
    }
    this.redis = redis as BudgetRedis;
  }

  async reserve(counters: BudgetCounter[], amount: number, holdId: string, now: number, holdTtlMs: number): Promise<ReserveOutcome> {
    const keys = counters.flatMap((c) => [c.key, holdsKey(c.key)]);
    const limits = counters.flatMap((c) => [String(c.limit), c.expiresAt ?? 0]);
    const [status, index, spent, held] = await this.redis.budgetReserve(keys.length, ...keys, counters.length, String(amount), holdId, now, holdTtlMs, ...limits);
    if (status === 'held') return { status };
    if (status === 'unseeded') return { status, index: Number(index) };
    return { status: 'refused', index: Number(index), spent: Number(spent), held: Number(held) };
  }

  async settle(counters: BudgetCounter[], holdId: string, actual: number): Promise<number[]> {
    const keys = counters.flatMap((c) => [c.key, holdsKey(c.key)]);
    return spentAfter(await this.redis.budgetSettle(keys.length, ...keys, counters.length, holdId, String(actual)));
  }

  /** Charges `actual` to the counters (their keys) still holding `holdId`, and releases it (RECOVER). */
  async recover(counters: string[], holdId: string, actual: number): Promise<void> {
    const keys = counters.flatMap((key) => [key, holdsKey(key)]);
    await this.redis.budgetRecover(keys.length, ...keys, counters.length, holdId, String(actual));
  }

  async seed(counter: BudgetCounter, spent: number): Promise<void> {
    await this.redis.budgetSeed(counter.key, String(spent), counter.expiresAt ?? 0);
  }

  async read(key: string): Promise<{ spent: number; held: number } | null> {
    const [spent, held] = await this.redis.hmget(key, 'spent', 'held');
    return spent === null ? null : { spent: Number(spent), held: Number(held ?? 0) };
  }
}

/** A settle script's answer: each counter's spend after the charge, -1 for one not seeded. */
export function spentAfter(reply: unknown): number[] {
  return Array.isArray(reply) ? reply.map((value) => (value === null || value === undefined ? -1 : Number(value))) : [];
}
