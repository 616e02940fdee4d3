import type Redis from 'ioredis';
import type { BudgetCounter, BudgetStore, ReserveOutcome } from './budget-store';

/**
 * Budget counters in Redis, shared by every replica. Per counter two keys: a hash (`spent`,
 * `held`, and `h:<hold id>` per hold) and a sorted set of hold ids scored by their expiry. Every
 * key carries one hash tag, so a key's and its team's counters can be checked in one script on a
 * cluster too. Amounts travel as decimal strings and are added with HINCRBY, never formatted by
 * Lua, so nano-dollar integers stay exact.
 */
export const BUDGET_KEY_PREFIX = '{rosetta:budget}:';

const RESERVE = `
local n = tonumber(ARGV[1])
local amount = ARGV[2]
local id = ARGV[3]
local now = tonumber(ARGV[4])
local ttl = tonumber(ARGV[5])
for i = 1, n do
  local h = KEYS[2 * i - 1]
  local z = KEYS[2 * i]
  if redis.call('HEXISTS', h, 'spent') == 0 then return {'unseeded', i - 1, '0', '0'} end
  local expired = redis.call('ZRANGEBYSCORE', z, '-inf', now)
  for _, hid in ipairs(expired) do
    local held = redis.call('HGET', h, 'h:' .. hid)
    if held then
      redis.call('HINCRBY', h, 'held', '-' .. held)
      redis.call('HDEL', h, 'h:' .. hid)
    end
    redis.call('ZREM', z, hid)
  end
  local spent = redis.call('HGET', h, 'spent')
  local held = redis.call('HGET', h, 'held') or '0'
  if tonumber(spent) + tonumber(held) + tonumber(amount) > tonumber(ARGV[4 + 2 * i]) then
    return {'refused', i - 1, spent, held}
  end
end
for i = 1, n do
  local h = KEYS[2 * i - 1]
  local z = KEYS[2 * i]
  redis.call('HINCRBY', h, 'held', amount)
  redis.call('HSET', h, 'h:' .. id, amount)
  redis.call('ZADD', z, now + ttl, id)
  local expires = tonumber(ARGV[5 + 2 * i])
  if expires > 0 then
    redis.call('PEXPIREAT', h, expires)
    redis.call('PEXPIREAT', z, expires)
  end
end
return {'held', 0, '0', '0'}
`;

const SETTLE = `
local n = tonumber(ARGV[1])
local id = ARGV[2]
local actual = ARGV[3]
for i = 1, n do
  local h = KEYS[2 * i - 1]
  local z = KEYS[2 * i]
  local held = redis.call('HGET', h, 'h:' .. id)
  if held then
    redis.call('HINCRBY', h, 'held', '-' .. held)
    redis.call('HDEL', h, 'h:' .. id)
    redis.call('ZREM', z, id)
  end
  if redis.call('HEXISTS', h, 'spent') == 1 then redis.call('HINCRBY', h, 'spent', actual) end
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

type BudgetRedis = Redis & {
  budgetReserve(...args: (string | number)[]): Promise<[string, number, string, string]>;
  budgetSettle(...args: (string | number)[]): Promise<number>;
  budgetSeed(key: string, spent: string, expires: number): Promise<number>;
};

function holdsKey(key: string): string {
  return `${key}:holds`;
}

export class RedisBudgetStore implements BudgetStore {
  private readonly redis: BudgetRedis;

  constructor(redis: Redis) {
    if (!('budgetReserve' in redis)) {
      redis.defineCommand('budgetReserve', { lua: RESERVE });
      redis.defineCommand('budgetSettle', { lua: SETTLE });
      redis.defineCommand('budgetSeed', { numberOfKeys: 1, lua: SEED });
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

  async settle(counters: BudgetCounter[], holdId: string, actual: number): Promise<void> {
    const keys = counters.flatMap((c) => [c.key, holdsKey(c.key)]);
    await this.redis.budgetSettle(keys.length, ...keys, counters.length, holdId, String(actual));
  }

  async seed(counter: BudgetCounter, spent: number): Promise<void> {
    await this.redis.budgetSeed(counter.key, String(spent), counter.expiresAt ?? 0);
  }

  async read(key: string): Promise<{ spent: number; held: number } | null> {
    const [spent, held] = await this.redis.hmget(key, 'spent', 'held');
    return spent === null ? null : { spent: Number(spent), held: Number(held ?? 0) };
  }
}
