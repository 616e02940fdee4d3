import { randomUUID } from 'node:crypto';
import type { RedisClient } from '@rosetta/platform';
import { toUnits, type RateLimitStore, type ReserveResult, type WindowResult } from './rate-limit-store';

export const RATE_LIMIT_KEY_PREFIX = 'rosetta:rl:';

/**
 * Shared by every script. A window is two Redis keys in one hash slot, passed to each function:
 *   z = sorted set, score = timestamp (ms), member = `<id>:<amount>` (settled: `<id>:s:<amount>`)
 *   s = the running sum of the amounts in z
 * `trim` drops entries at or before `now - window` and keeps s equal to the sum of z, rebuilding it
 * from z if it is missing (so the two can never drift apart for longer than one call). The
 * functions take the keys rather than reading KEYS so one script can work on several windows
 * (the admission script: requests and tokens).
 */
export const RATE_WINDOW_LUA = `
local function amount_of(member)
  return tonumber(string.match(member, ':(%d+)$')) or 0
end

local function trim(z, s, now, window)
  local cutoff = now - window
  local expired = redis.call('ZRANGEBYSCORE', z, '-inf', cutoff)
  if #expired > 0 then redis.call('ZREMRANGEBYSCORE', z, '-inf', cutoff) end
  if redis.call('ZCARD', z) == 0 then
    redis.call('DEL', s)
    return 0
  end
  local raw = redis.call('GET', s)
  if not raw then
    local total = 0
    for _, m in ipairs(redis.call('ZRANGE', z, 0, -1)) do total = total + amount_of(m) end
    redis.call('SET', s, total, 'PX', window)
    return total
  end
  local used = tonumber(raw)
  if #expired > 0 then
    for _, m in ipairs(expired) do used = used - amount_of(m) end
    if used < 0 then used = 0 end
    redis.call('SET', s, used, 'KEEPTTL')
  end
  return used
end

-- ms until 'need' more units fit, walking the oldest entries as they expire
local function wait_for(z, need, used, limit, window, now)
  if need > limit then return window end
  if used + need <= limit then return 0 end
  local freed = 0
  local start = 0
  while true do
    local chunk = redis.call('ZRANGE', z, start, start + 99, 'WITHSCORES')
    if #chunk == 0 then return window end
    for i = 1, #chunk, 2 do
      freed = freed + amount_of(chunk[i])
      if used - freed + need <= limit then
        local t = tonumber(chunk[i + 1]) + window - now
        if t < 0 then t = 0 end
        return t
      end
    end
    start = start + 100
  end
end

local function window_reset(z, window, now)
  local newest = redis.call('ZRANGE', z, -1, -1, 'WITHSCORES')
  if #newest == 0 then return 0 end
  local t = tonumber(newest[2]) + window - now
  if t < 0 then t = 0 end
  return t
end

local function touch(z, s, window)
  redis.call('PEXPIRE', z, window)
  redis.call('PEXPIRE', s, window)
end

-- records 'amount' units as 'member' at 'now' on top of 'used'; returns the new sum
local function record(z, s, member, amount, used, window, now)
  redis.call('ZADD', z, now, member)
  used = used + amount
  redis.call('SET', s, used)
  touch(z, s, window)
  return used
end

-- {allowed, used, resetMs, windowResetMs}: a window's figures for the reply
local function figures(z, allowed, used, limit, window, now)
  return {allowed, used, wait_for(z, 1, used, limit, window, now), window_reset(z, window, now)}
end

-- replaces reservation 'member' by 'actual' units at its original time; 1 if settled, 0 if unknown
local function settle(z, s, member, actual, window, now)
  local used = trim(z, s, now, window)
  local score = redis.call('ZSCORE', z, member)
  if not score then return 0 end
  local id = string.match(member, '^(.-):%d+$')
  if not id then return 0 end
  redis.call('ZREM', z, member)
  redis.call('ZADD', z, score, id .. ':s:' .. actual)
  used = used - amount_of(member) + actual
  if used < 0 then used = 0 end
  redis.call('SET', s, used)
  touch(z, s, window)
  return 1
end
`;

/** ARGV: amount, limit, window, now, member. Returns {allowed, used, resetMs, windowResetMs, retryAfterMs|-1}. */
const RESERVE = `${RATE_WINDOW_LUA}
local amount = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local z, s = KEYS[1], KEYS[2]
local used = trim(z, s, now, window)
local allowed = 0
local retry = 0
if used + amount <= limit then
  used = record(z, s, ARGV[5], amount, used, window, now)
  allowed = 1
elseif amount > limit then
  retry = -1
else
  retry = wait_for(z, amount, used, limit, window, now)
end
local reply = figures(z, allowed, used, limit, window, now)
reply[5] = retry
return reply
`;

/** ARGV: reservation member, actual, window, now. Returns 1 if settled, 0 if nothing to settle. */
const SETTLE = `${RATE_WINDOW_LUA}
return settle(KEYS[1], KEYS[2], ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]))
`;

/** ARGV: limit, window, now. Returns {allowed, used, resetMs, windowResetMs}. */
const PEEK = `${RATE_WINDOW_LUA}
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local used = trim(KEYS[1], KEYS[2], now, window)
local allowed = 0
if used + 1 <= limit then allowed = 1 end
return figures(KEYS[1], allowed, used, limit, window, now)
`;

export type ScriptReply = [number, number, number, number, number?];

interface ScriptCommands {
  rosettaRlReserve(z: string, s: string, amount: number, limit: number, window: number, now: number, member: string): Promise<ScriptReply>;
  rosettaRlSettle(z: string, s: string, member: string, actual: number, window: number, now: number): Promise<number>;
  rosettaRlPeek(z: string, s: string, limit: number, window: number, now: number): Promise<ScriptReply>;
}

export interface RedisRateLimitStoreOptions {
  /** Defaults to `rosetta:rl:`; tests use a unique one per run. */
  prefix?: string;
}

/**
 * The sliding-window store in Redis, shared by every replica. Each operation is ONE Lua script
 * (loaded once with `defineCommand`, then run by EVALSHA): trim, check, record and read the
 * result happen atomically in a single round trip, so there is no race between check and record
 * however many replicas call at once. Keys expire `windowMs` after their last write.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly prefix: string;
  private readonly commands: ScriptCommands;

  constructor(
    private readonly client: RedisClient,
    options: RedisRateLimitStoreOptions = {},
  ) {
    this.prefix = options.prefix ?? RATE_LIMIT_KEY_PREFIX;
    client.defineCommand('rosettaRlReserve', { numberOfKeys: 2, lua: RESERVE });
    client.defineCommand('rosettaRlSettle', { numberOfKeys: 2, lua: SETTLE });
    client.defineCommand('rosettaRlPeek', { numberOfKeys: 2, lua: PEEK });
    this.commands = client as unknown as ScriptCommands;
  }

  /** Whether the connection is known to be broken right now (commands would only wait to fail). */
  isUnavailable(): boolean {
    const status = this.client.status;
    return status === 'reconnecting' || status === 'close' || status === 'end';
  }

  async hit(key: string, limit: number, windowMs: number, now: number): Promise<WindowResult> {
    const { reservationId: _id, retryAfterMs: _retry, ...result } = await this.reserve(key, 1, limit, windowMs, now);
    return result;
  }

  async reserve(key: string, amount: number, limit: number, windowMs: number, now: number): Promise<ReserveResult> {
    const units = toUnits(amount);
    const member = `${randomUUID()}:${units}`;
    const [z, s] = this.keys(key);
    const reply = await this.commands.rosettaRlReserve(z, s, units, limit, windowMs, Math.floor(now), member);
    const result = windowResult(reply, limit);
    if (result.allowed) return { ...result, reservationId: member };
    const retry = Number(reply[4]);
    return retry < 0 ? result : { ...result, retryAfterMs: retry };
  }

  async settle(key: string, reservationId: string, actual: number, windowMs: number, now: number): Promise<void> {
    const [z, s] = this.keys(key);
    await this.commands.rosettaRlSettle(z, s, reservationId, toUnits(actual), windowMs, Math.floor(now));
  }

  async peek(key: string, limit: number, windowMs: number, now: number): Promise<WindowResult> {
    const [z, s] = this.keys(key);
    return windowResult(await this.commands.rosettaRlPeek(z, s, limit, windowMs, Math.floor(now)), limit);
  }

  /**
   * The window's two Redis keys; the hash tag keeps them in one slot (Redis Cluster). A name that
   * carries its own tag (the admission tag: RateLimitService's keys) keeps it, so the window
   * shares a slot with the key's budgets; any other name is its own tag.
   */
  keys(key: string): [string, string] {
    const base = key.startsWith('{') ? `${this.prefix}${key}` : `${this.prefix}{${key}}`;
    return [base, `${base}:sum`];
  }
}

/** A window script's reply (allowed, used, resetMs, windowResetMs) as a WindowResult. */
export function windowResult(reply: ScriptReply, limit: number): WindowResult {
  const used = Number(reply[1]);
  return {
    allowed: Number(reply[0]) === 1,
    used,
    remaining: Math.max(0, limit - used),
    resetMs: Number(reply[2]),
    windowResetMs: Number(reply[3]),
    limit,
  };
}
