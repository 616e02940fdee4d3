import type { RedisClient } from '@rosetta/platform';
import { BUDGET_LUA, holdsKey, spentAfter } from '../budget/redis-budget-store';
import type { BudgetCounter } from '../budget/budget-store';
import { RATE_WINDOW_LUA, windowResult, type ScriptReply } from '../limiter/redis-rate-limit-store';
import type { ReserveResult, WindowResult } from '../limiter/rate-limit-store';

/**
 * KEYS: the request window (Z, S), the token window (Z, S), then each budget counter (hash,
 * holds). ARGV: window, now, RPM (-1: not counted here), request member, token amount, TPM (-1:
 * none), token member, budget count, budget amount, hold id, hold ttl, then limit and expiry per
 * budget (from ARGV[12]).
 *
 * The request is counted first and stays counted whatever follows (as when RPM was its own
 * script: a request refused for tokens or money still used one of the minute's requests); then
 * the tokens and the budgets are checked, and recorded only when everything fits. The reply is
 * flat: status, the request window (allowed -1: not counted), the token window (allowed -1: no
 * TPM) with its retry (-1: never fits), and for a budget refusal its index, spent and held.
 */
const ADMIT = `${RATE_WINDOW_LUA}${BUDGET_LUA}
local window = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local rpm = tonumber(ARGV[3])
local amount = tonumber(ARGV[5])
local tpm = tonumber(ARGV[6])
local n = tonumber(ARGV[8])

local requests = {-1, 0, 0, 0}
if rpm >= 0 then
  local used = trim(KEYS[1], KEYS[2], now, window)
  local allowed = 0
  if used + 1 <= rpm then
    used = record(KEYS[1], KEYS[2], ARGV[4], 1, used, window, now)
    allowed = 1
  end
  requests = figures(KEYS[1], allowed, used, rpm, window, now)
end

local tused = 0
if tpm >= 0 then tused = trim(KEYS[3], KEYS[4], now, window) end
local function reply(status, allowed, retry, budget)
  local tokens = {-1, 0, 0, 0}
  if tpm >= 0 then tokens = figures(KEYS[3], allowed, tused, tpm, window, now) end
  return {status, requests[1], requests[2], requests[3], requests[4], tokens[1], tokens[2], tokens[3], tokens[4], retry, budget[1], budget[2], budget[3]}
end
local none = {-1, '0', '0'}

if requests[1] == 0 then
  local fits = 0
  if tused + 1 <= tpm then fits = 1 end
  return reply('requests', fits, 0, none)
end
if tpm >= 0 and tused + amount > tpm then
  local retry = -1
  if amount <= tpm then retry = wait_for(KEYS[3], amount, tused, tpm, window, now) end
  return reply('tokens', 0, retry, none)
end
if n > 0 then
  local refused = budget_check(5, n, ARGV[9], now, 12)
  if refused then return reply(refused[1], 1, 0, {refused[2], refused[3], refused[4]}) end
end
if tpm >= 0 then tused = record(KEYS[3], KEYS[4], ARGV[7], amount, tused, window, now) end
if n > 0 then budget_hold(5, n, ARGV[9], ARGV[10], now, tonumber(ARGV[11]), 12) end
return reply('held', 1, 0, none)
`;

/**
 * KEYS as for ADMIT. ARGV: window, now, token member ('': none), actual tokens, budget count, hold
 * id, actual nano-dollars. Answers each budget's spend after the charge (budget_settle).
 */
const SETTLE = `${RATE_WINDOW_LUA}${BUDGET_LUA}
if ARGV[3] ~= '' then settle(KEYS[3], KEYS[4], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[1]), tonumber(ARGV[2])) end
local n = tonumber(ARGV[5])
if n > 0 then return budget_settle(5, n, ARGV[6], ARGV[7]) end
return {}
`;

type JointRedis = RedisClient & {
  rosettaAdmit(...args: (string | number)[]): Promise<(string | number)[]>;
  rosettaAdmitSettle(...args: (string | number)[]): Promise<unknown>;
};

/** A window the script counts in: its Redis keys, limit and the entry's member (`<id>:<amount>`). */
export interface JointWindow {
  keys: [string, string];
  limit: number;
  member: string;
}

/** The request's token reservation: its window and amount. */
export interface JointTokens extends JointWindow {
  units: number;
}

/** A request's budget hold: the counters, the amount in nano-dollars, the hold id and its expiry. */
export interface JointBudget {
  counters: BudgetCounter[];
  amount: number;
  holdId: string;
  holdTtlMs: number;
}

/** What one admission script takes: any of the three, on the limiter's window length. */
export interface JointRequest {
  windowMs: number;
  /** The admission tag (admissionTag) every key below carries: one Redis Cluster slot. */
  tag: string;
  /** Counts the request against RPM; absent when it is not counted here. */
  requests?: JointWindow;
  tokens?: JointTokens;
  budget?: JointBudget;
}

export type JointOutcome = {
  /** The request window after counting it; absent when not counted here. */
  requests?: WindowResult;
  /** The token window (after the reservation when held); absent without tokens. */
  tokens?: ReserveResult;
} & (
  | { status: 'held' }
  /** The request limit is reached (the request was not counted; nothing recorded). */
  | { status: 'requests' }
  /** The tokens did not fit (the request was counted; nothing else recorded). */
  | { status: 'tokens' }
  /** Budget `index` cannot take the amount (the request was counted; nothing else recorded). */
  | { status: 'refused'; index: number; spent: number; held: number }
  /** Budget `index` has never been loaded this period: take the separate path, which seeds it. */
  | { status: 'unseeded'; index: number }
);

/**
 * A request's count against RPM, its token reservation and its budget holds in ONE script, and
 * their settlement in one more: whatever limits a key has, it costs one round trip before the
 * upstream call. Every key of one admission carries its admission tag, so each script is one
 * call on a Redis Cluster too (docs/decisions/0026).
 *
 * The scripts asked for in one turn of the event loop — admissions and settlements alike — go out
 * together at its end, as one pipeline (one per admission tag on a cluster): one socket write and
 * one read for all of them instead of one each, which is most of what a limit cost a request
 * (docs/decisions/0035). Each is still its own script, so each decides atomically as before.
 */
export class RedisJointStore {
  private readonly redis: JointRedis;
  private queued: QueuedScript[] = [];

  constructor(redis: RedisClient) {
    if (!('rosettaAdmit' in redis)) {
      redis.defineCommand('rosettaAdmit', { lua: ADMIT });
      redis.defineCommand('rosettaAdmitSettle', { lua: SETTLE });
    }
    this.redis = redis as JointRedis;
  }

  async admit(request: JointRequest, now: number): Promise<JointOutcome> {
    const { requests, tokens, budget } = request;
    const keys = keysOf(request);
    const args: (string | number)[] = [
      keys.length,
      ...keys,
      request.windowMs,
      Math.floor(now),
      requests?.limit ?? -1,
      requests?.member ?? '',
      tokens?.units ?? 0,
      tokens?.limit ?? -1,
      tokens?.member ?? '',
      budget?.counters.length ?? 0,
      String(budget?.amount ?? 0),
      budget?.holdId ?? '',
      budget?.holdTtlMs ?? 0,
    ];
    for (const c of budget?.counters ?? []) args.push(String(c.limit), c.expiresAt ?? 0);
    const reply = (await this.enqueue('rosettaAdmit', request.tag, args)) as (string | number)[];
    const status = String(reply[0]);
    const figures = reply.slice(1).map(Number);
    const windows = {
      requests: requests && figures[0]! >= 0 ? windowResult(figures.slice(0, 4) as ScriptReply, requests.limit) : undefined,
      tokens: tokens ? tokenResult(status, figures.slice(4, 9) as ScriptReply, tokens) : undefined,
    };
    const index = figures[9]!;
    if (status === 'refused') return { status, ...windows, index, spent: figures[10]!, held: figures[11]! };
    if (status === 'unseeded') return { status, ...windows, index };
    if (status === 'held' || status === 'requests' || status === 'tokens') return { status, ...windows };
    throw new Error(`admission script answered '${status}'`);
  }

  /**
   * Settles the reservation and the hold of one admission (either may be absent), with this turn's
   * other scripts (nothing waits for a settlement). Answers each budget's spend after the charge
   * (spentAfter).
   */
  async settle(request: JointRequest, actualTokens: number, actualNanos: number, now: number): Promise<number[]> {
    const keys = keysOf(request);
    const { tokens, budget } = request;
    const args = [keys.length, ...keys, request.windowMs, Math.floor(now), tokens?.member ?? '', actualTokens, budget?.counters.length ?? 0, budget?.holdId ?? '', String(actualNanos)];
    return spentAfter(await this.enqueue('rosettaAdmitSettle', request.tag, args));
  }

  /** Queues a script for the end of this turn; the first of a turn schedules the send. */
  private enqueue(script: JointScript, tag: string, args: (string | number)[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const settled = (error: unknown, reply?: unknown): void => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(reply));
      if (this.queued.push({ script, tag, args, settled }) === 1) setImmediate(() => this.sendQueued());
    });
  }

  private sendQueued(): void {
    const batch = this.queued;
    this.queued = [];
    if (!this.redis.isCluster) return this.send(batch);
    // A cluster pipeline must stay in one slot: one per admission tag touched this turn.
    const byTag = new Map<string, QueuedScript[]>();
    for (const queued of batch) {
      const group = byTag.get(queued.tag);
      if (group) group.push(queued);
      else byTag.set(queued.tag, [queued]);
    }
    for (const group of byTag.values()) this.send(group);
  }

  private send(batch: QueuedScript[]): void {
    if (batch.length === 1) {
      const [one] = batch as [QueuedScript];
      this.redis[one.script](...one.args).then((reply) => one.settled(null, reply), one.settled);
      return;
    }
    const pipeline = this.redis.pipeline() as unknown as JointPipeline;
    for (const { script, args } of batch) pipeline[script](...args);
    pipeline.exec().then(
      (results) => batch.forEach((queued, i) => queued.settled(results?.[i]?.[0] ?? (results ? null : new Error('admission pipeline not sent')), results?.[i]?.[1])),
      (error: unknown) => batch.forEach((queued) => queued.settled(error ?? new Error('admission pipeline failed'))),
    );
  }
}

type JointScript = 'rosettaAdmit' | 'rosettaAdmitSettle';

interface QueuedScript {
  script: JointScript;
  tag: string;
  args: (string | number)[];
  settled(error: unknown, reply?: unknown): void;
}

type JointPipeline = Record<JointScript, (...args: (string | number)[]) => JointPipeline> & {
  exec(): Promise<[Error | null, unknown][] | null>;
};

/** The token window as a reservation: with its member when held, its retry hint when refused. */
function tokenResult(status: string, reply: ScriptReply, tokens: JointTokens): ReserveResult {
  const window = windowResult(reply, tokens.limit);
  if (status === 'held') return { ...window, reservationId: tokens.member };
  const retry = Number(reply[4]);
  return status === 'tokens' && retry >= 0 ? { ...window, retryAfterMs: retry } : window;
}

/**
 * Both windows' keys, then the budgets'. A window not used is still named, under the same tag
 * (the script does not touch it, but a cluster checks that every declared key is in one slot).
 */
function keysOf({ tag, requests, tokens, budget }: JointRequest): string[] {
  const unused: [string, string] = [`rosetta:unused:${tag}`, `rosetta:unused:${tag}`];
  return [...(requests?.keys ?? unused), ...(tokens?.keys ?? unused), ...(budget?.counters ?? []).flatMap((c) => [c.key, holdsKey(c.key)])];
}
