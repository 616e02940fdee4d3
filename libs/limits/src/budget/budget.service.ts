import { Inject, Injectable, Optional } from '@nestjs/common';
import { TeamCacheService, type ApiKeyRecord, type Budget } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { APP_LOGGER, ConfigError, REDIS_CLIENT, ROSETTA_CONFIG, type AppLogger, type RedisClient, type RosettaConfig } from '@rosetta/platform';
import { EndUserSpendRepository, UsageRepository } from '@rosetta/usage';
import { createHash, randomUUID } from 'node:crypto';
import { periodWindow, toNanos, toUsd, type PeriodWindow } from './budget-period';
import { MemoryBudgetStore, type BudgetCounter, type BudgetStore } from './budget-store';
import { BudgetObservers, type BudgetObserver } from './budget-observer';
import { admissionTag } from '../admission-slot';
import { admissionId } from '../admission-id';
import { budgetExceeded } from './budget-refusal';
import { BUDGET_KEY_PREFIX, RedisBudgetStore } from './redis-budget-store';

/** What happens to budget checks while Redis does not answer. */
export type BudgetRedisFailurePolicy = 'closed' | 'local';

/** `BUDGET_REDIS_FAILURE=closed|local` (default `closed`: money fails closed). */
export function budgetPolicyFromEnv(env: Record<string, string | undefined> = process.env): BudgetRedisFailurePolicy {
  const raw = env['BUDGET_REDIS_FAILURE']?.trim().toLowerCase();
  if (raw === undefined || raw === '') return 'closed';
  if (raw !== 'closed' && raw !== 'local') throw new ConfigError('BUDGET_REDIS_FAILURE', `must be 'closed' or 'local', got '${raw}'`);
  return raw;
}

/** One budget a request is charged against: its key's, its team's, or its end user's of that key. */
export interface BudgetScope {
  kind: 'key' | 'team' | 'end_user';
  /** The key's or the team's id; for an end user, the key's. */
  id: string;
  /** The key's or the team's name; for an end user, the key's. */
  name: string;
  budget: Budget;
  /** The admission tag its counter lives under (admissionTag of the key being admitted; a team's own for a team read alone). */
  tag: string;
  /** An end-user scope's end user (decision 0033), and its counter's name for it (a digest: any text, bounded). */
  endUser?: { name: string; digest: string };
}

export interface BudgetStatus {
  usd: number;
  period: Budget['period'];
  spentUsd: number;
  /** Held by requests in flight. */
  heldUsd: number;
  remainingUsd: number;
  resetsAt: Date | null;
}

/** A hold before it is taken: the key's budgets now, their counters, the amount and the hold's id. */
export interface PreparedHold {
  scopes: BudgetScope[];
  windows: PeriodWindow[];
  counters: BudgetCounter[];
  /** Nano-dollars. */
  amount: number;
  holdId: string;
  now: number;
  /** The request set no max_tokens: it holds the endpoint's whole output limit, which its refusal says. */
  outputUncapped?: boolean;
}

/** A reservation against every budget of a request; settle it once, with the request's real cost. */
export interface BudgetHold {
  /**
   * The most the request may be charged: `MAX_SETTLE_FACTOR` times what it held. Estimates are
   * estimates (another tokenizer, an image's real size), but a report of many times the hold is
   * not a request the budget agreed to; the excess is recorded on the ledger row, not charged.
   */
  readonly capUsd: number;
  /** Where the hold lives, so another replica can charge it if this one dies (recover). */
  readonly ref: HoldRef;
  settle(costUsd: number): void;
}

/** A hold's counters (their Redis keys), its id and its amount in nano-dollars. */
export interface HoldRef {
  counters: string[];
  holdId: string;
  amount: number;
}

/** How far past its hold one request's charge may go (issue 26). */
export const MAX_SETTLE_FACTOR = 2;

const REDIS_TIMEOUT_MS = 1_500;

/**
 * Dollar budgets per key and per team (ARCHITECTURE §8). Before the upstream call a request holds
 * the most it can cost in every budget that applies, atomically (one Redis script for all of
 * them), and the hold is replaced by the real cost when the response closes — the TPM mechanism
 * in dollars. Counters start each period from the usage ledger, so a Redis restart or a new
 * replica loses no spend. Without Redis the counters live in this process.
 */
@Injectable()
export class BudgetService {
  private readonly store: BudgetStore;
  private readonly redis?: RedisBudgetStore;
  private readonly local = new MemoryBudgetStore();
  /** Counters live in Redis (the joint admission script may hold them with the tokens). */
  readonly redisBacked: boolean;
  private readonly policy: BudgetRedisFailurePolicy;
  /** How long a hold outlives a replica that died mid-request. */
  readonly holdTtlMs: number;
  private readonly observers: BudgetObservers;

  constructor(
    @Inject(REDIS_CLIENT) redis: RedisClient | null,
    private readonly teams: TeamCacheService,
    private readonly usage: UsageRepository,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    @Optional() @Inject(ROSETTA_CONFIG) config?: RosettaConfig,
    @Optional() private readonly endUsers?: EndUserSpendRepository,
  ) {
    this.redisBacked = redis !== null;
    this.redis = redis ? new RedisBudgetStore(redis) : undefined;
    this.store = this.redis ?? this.local;
    this.policy = budgetPolicyFromEnv();
    // A request cannot outlive its upstream time-out; a minute more covers settling.
    this.holdTtlMs = (config?.timeouts.totalMs ?? 600_000) + 60_000;
    this.observers = new BudgetObservers(logger);
  }

  /** Tells `observer` of every charge and refusal from now on (the alerts). */
  observe(observer: BudgetObserver): void {
    this.observers.add(observer);
  }

  /**
   * The budgets a key's requests are charged against: its own, its team's, then — when the key has
   * an end-user budget and the request names an end user — that end user's (decision 0033; a
   * request without one is held to the key's and team's only). Its counter shares the key's
   * admission tag, so all three stay one script on a cluster. No end-user budget: no extra work.
   */
  scopesFor(key: ApiKeyRecord, endUser?: string): BudgetScope[] {
    const scopes: BudgetScope[] = [];
    const tag = admissionTag(key);
    if (key.budget) scopes.push({ kind: 'key', id: key.id, name: key.name, budget: key.budget, tag });
    const team = this.teams.get(key.teamId);
    if (team?.budget) scopes.push({ kind: 'team', id: team.id, name: team.name, budget: team.budget, tag });
    if (key.endUserBudget && endUser !== undefined) {
      const digest = createHash('sha256').update(endUser).digest('base64url').slice(0, 32);
      scopes.push({ kind: 'end_user', id: key.id, name: key.name, budget: key.endUserBudget, tag, endUser: { name: endUser, digest } });
    }
    return scopes;
  }

  /**
   * Holds `maxCostUsd` in every budget of the key, or throws 402 `budget_exceeded` naming the
   * first budget that cannot cover it and when it resets. No budgets: nothing to do, no I/O.
   */
  async reserve(key: ApiKeyRecord, maxCostUsd: number, now: number = Date.now(), outputUncapped = false, endUser?: string): Promise<BudgetHold | undefined> {
    const hold = this.prepare(key, maxCostUsd, now, outputUncapped, endUser);
    return hold && this.reservePrepared(hold);
  }

  /** What a hold of `maxCostUsd` on the request's budgets is made of (no I/O); undefined without budgets. */
  prepare(key: ApiKeyRecord, maxCostUsd: number, now: number = Date.now(), outputUncapped = false, endUser?: string): PreparedHold | undefined {
    const scopes = this.scopesFor(key, endUser);
    if (scopes.length === 0) return undefined;
    const windows = scopes.map((s) => this.windowOf(s.budget.period, now));
    return { scopes, windows, counters: scopes.map((s, i) => counterOf(s, windows[i]!)), amount: toNanos(maxCostUsd), holdId: admissionId(), now, outputUncapped };
  }

  /** Takes a prepared hold in the budget store (seeding counters from the ledger as needed). */
  async reservePrepared(hold: PreparedHold): Promise<BudgetHold> {
    const store = await this.run((store) => this.reserveIn(store, hold));
    return this.holdOf(hold, (nanos) => store.settle(hold.counters, hold.holdId, nanos));
  }

  /**
   * Charges a hold whose request's replica died: `costUsd` to every counter that still holds it,
   * and the hold released. A hold already settled (its row was charged before the replica died) or
   * expired is left alone, so a request is never charged twice. Redis only: without it no other
   * replica can see the hold.
   */
  async recover(ref: HoldRef, costUsd: number): Promise<void> {
    if (!this.redis) return;
    await this.redis.recover(ref.counters, ref.holdId, toNanos(costUsd));
  }

  /**
   * Charges `costUsd` to the request's budgets without a hold: a cost incurred where none was taken
   * (a guardrail model check on a request stopped before admission). A settle under an id no hold
   * has is a plain charge; a counter not loaded this period is seeded from the ledger first, which
   * does not have the request's row yet (it is written after its batch). Once, never retried: a
   * failure (Redis down, budgets failing closed) is logged, and the ledger keeps the cost.
   */
  async charge(key: ApiKeyRecord, costUsd: number, endUser?: string, now: number = Date.now()): Promise<void> {
    const scopes = this.scopesFor(key, endUser);
    if (scopes.length === 0 || !(costUsd > 0)) return;
    const windows = scopes.map((s) => this.windowOf(s.budget.period, now));
    const counters = scopes.map((s, i) => counterOf(s, windows[i]!));
    const nanos = toNanos(costUsd);
    const id = `charge:${randomUUID()}`;
    try {
      const after = await this.run(async (store) => {
        const spent = await store.settle(counters, id, nanos);
        for (const [i, value] of spent.entries()) {
          if (value >= 0) continue;
          await this.seed(store, scopes[i]!, windows[i]!, counters[i]!);
          spent[i] = (await store.settle([counters[i]!], id, nanos))[0] ?? -1;
        }
        return spent;
      });
      this.observers.charged({ scopes, windows }, nanos, after);
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'budgets: a charge without a hold failed');
    }
  }

  /**
   * A hold of `amount` nano-dollars taken elsewhere (the joint admission script): `send` charges
   * the real cost, once, and never more than the hold's cap.
   */
  holdOf(hold: { counters: BudgetCounter[]; holdId: string; amount: number; scopes?: BudgetScope[]; windows?: PeriodWindow[] }, send: (actualNanos: number) => Promise<number[]>): BudgetHold {
    let settled = false;
    const capUsd = toUsd(hold.amount) * MAX_SETTLE_FACTOR;
    return {
      capUsd,
      ref: { counters: hold.counters.map((c) => c.key), holdId: hold.holdId, amount: hold.amount },
      settle: (costUsd: number) => {
        if (settled) return;
        settled = true;
        const nanos = toNanos(Math.min(costUsd, capUsd));
        send(nanos)
          .then((after) => this.observers.charged(hold, nanos, after))
          .catch((error: unknown) => {
            this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'budgets: settlement failed');
          });
      },
    };
  }

  /**
   * The 402 for a hold that budget `index` cannot take. This is where a budget is first refused, so
   * where its 100 % threshold shows: an alert reporter (ARCHITECTURE §9 "Alerts") takes the scope
   * from here — for `kind: 'end_user'`, the key (`id`, `name`) and `endUser.name`.
   */
  refusal(hold: PreparedHold, index: number, spent: number, held: number): GatewayError {
    this.observers.refused(hold.scopes[index]!, hold.windows[index]!, spent + held);
    return budgetExceeded(hold.scopes[index]!, hold.windows[index]!, spent + held, hold.amount, hold.outputUncapped === true);
  }

  /** The current window of each period, computed again only when it has reset. */
  private readonly windows = new Map<Budget['period'], PeriodWindow>();

  private windowOf(period: Budget['period'], now: number): PeriodWindow {
    const cached = this.windows.get(period);
    if (cached && now >= cached.startsAt.getTime() && (cached.resetsAt === null || now < cached.resetsAt.getTime())) return cached;
    const window = periodWindow(period, now);
    this.windows.set(period, window);
    return window;
  }

  /** A scope's spend this period (ledger-seeded), for /v1/key and the admin API. */
  async status(scope: BudgetScope, now: number = Date.now()): Promise<BudgetStatus> {
    const window = periodWindow(scope.budget.period, now);
    const counter = counterOf(scope, window);
    const read = await this.run(async (store) => {
      let figures = await store.read(counter.key, now);
      if (!figures) {
        await this.seed(store, scope, window, counter);
        figures = (await store.read(counter.key, now)) ?? { spent: 0, held: 0 };
      }
      return figures;
    });
    const spentUsd = toUsd(read.spent);
    return {
      usd: scope.budget.usd,
      period: scope.budget.period,
      spentUsd,
      heldUsd: toUsd(read.held),
      remainingUsd: Math.max(0, scope.budget.usd - spentUsd - toUsd(read.held)),
      resetsAt: window.resetsAt,
    };
  }

  private async reserveIn(store: BudgetStore, hold: PreparedHold): Promise<BudgetStore> {
    const { scopes, windows, counters } = hold;
    // Each unseeded counter is seeded once from the ledger, then the check runs again.
    for (let attempt = 0; attempt <= counters.length; attempt++) {
      const outcome = await store.reserve(counters, hold.amount, hold.holdId, hold.now, this.holdTtlMs);
      if (outcome.status === 'held') return store;
      if (outcome.status === 'refused') throw this.refusal(hold, outcome.index, outcome.spent, outcome.held);
      await this.seed(store, scopes[outcome.index]!, windows[outcome.index]!, counters[outcome.index]!);
    }
    throw new GatewayError('api_error', 'Budgets could not be read', { local: true });
  }

  /** A counter's first use this period (or after Redis lost it): its spend so far, from the ledger. */
  private async seed(store: BudgetStore, scope: BudgetScope, window: PeriodWindow, counter: BudgetCounter): Promise<void> {
    const spent = scope.endUser
      ? ((await this.endUsers?.spentSince(scope.id, scope.endUser.name, window.startsAt)) ?? 0)
      : await this.usage.spentSince(scope.kind === 'team' ? 'team' : 'key', scope.id, window.startsAt);
    await store.seed(counter, toNanos(spent));
  }

  /** Runs against Redis within a time-out; when Redis fails, by the policy: refuse, or count here. */
  private async run<T>(work: (store: BudgetStore) => Promise<T>): Promise<T> {
    if (!this.redisBacked) return work(this.local);
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        work(this.store),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('Redis did not answer in time')), REDIS_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      this.logger.warn({ err: error instanceof Error ? error.message : String(error), policy: this.policy }, 'budgets: Redis unavailable');
      if (this.policy === 'local') return work(this.local);
      throw new GatewayError('overloaded_error', 'Budgets cannot be checked right now (Redis is unreachable); the request was not sent', { status: 503, retryAfterMs: 1_000 });
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A budget's counter in one period, under its admission tag (an end user's: the key's, then its digest). */
function counterOf(scope: BudgetScope, window: PeriodWindow): BudgetCounter {
  const id = scope.endUser ? `${scope.id}:${scope.endUser.digest}` : scope.id;
  return { key: `${BUDGET_KEY_PREFIX}${scope.tag}:${scope.kind}:${id}:${window.id}`, limit: toNanos(scope.budget.usd), expiresAt: window.resetsAt ? window.resetsAt.getTime() + 86_400_000 : null };
}
