import { Inject, Injectable } from '@nestjs/common';
import type { ApiKeyRecord } from '@rosetta/auth';
import { APP_LOGGER, type AppLogger } from '@rosetta/platform';
import { randomUUID } from 'node:crypto';
import { BudgetService, type BudgetHold, type PreparedHold } from '../budget/budget.service';
import type { LimitState } from '../limiter/rate-limit-headers';
import { RateLimitService, tokenKey, type SharedRedis, type TokenRequest, type TokenReservation } from '../limiter/rate-limit.service';
import type { JointBudget, JointOutcome, JointTokens } from './redis-joint-store';

/** What a request was admitted with: settle both when it ends. */
export interface Admission {
  tokens?: TokenReservation;
  budget?: BudgetHold;
}

/**
 * Tokens per minute and dollar budgets, taken together right before the upstream call. With
 * Redis answering and a key that has both, the token reservation and every budget hold are ONE
 * script (RedisJointStore), and so is their settlement: a budgeted key costs as many Redis
 * commands as a key with token limits only. Otherwise — no Redis, Redis degraded, no token limit,
 * or a budget counter not yet loaded this period — the two are taken separately, at once, each
 * with its own Redis failure policy, and whichever refuses, the other is given back.
 *
 * A joint script that times out may still have run: its reservation and hold then stay counted
 * until they expire (a minute; the hold's time-to-live), never the reverse.
 */
@Injectable()
export class JointAdmissionService {
  constructor(
    private readonly limits: RateLimitService,
    private readonly budgets: BudgetService,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  /** Reserves the request's tokens (RateLimitService.reserveRequest) and holds `maxCostUsd()` in the key's budgets. */
  async admit(key: ApiKeyRecord, request: TokenRequest, maxCostUsd: () => number, previous?: LimitState): Promise<Admission> {
    const now = Date.now();
    const hold = this.budgets.prepare(key, maxCostUsd(), now);
    if (!hold) return { tokens: await this.limits.reserveRequest(key, request, previous) };
    return (await this.together(key, request, hold, previous)) ?? this.separately(key, request, hold, previous);
  }

  /** The joint script; `undefined` when it cannot decide (the separate paths then do). */
  private async together(key: ApiKeyRecord, request: TokenRequest, hold: PreparedHold, previous: LimitState | undefined): Promise<Admission | undefined> {
    const shared = this.limits.sharedRedis();
    const { units, tpm, need } = this.limits.tokenNeed(key, request);
    if (!shared || tpm === null || !this.budgets.redisBacked) return undefined;
    const tokens: JointTokens = { keys: shared.windows.keys(tokenKey(key.id)), units, limit: tpm, windowMs: this.limits.windowMs, member: `${randomUUID()}:${units}` };
    const budget: JointBudget = { counters: hold.counters, amount: hold.amount, holdId: hold.holdId, holdTtlMs: this.budgets.holdTtlMs };
    let outcome: JointOutcome;
    try {
      outcome = await shared.run(() => shared.joint.reserve(tokens, budget, hold.now));
    } catch {
      return undefined;
    }
    if (outcome.status === 'unseeded') return undefined;
    if (outcome.status === 'refused') throw this.budgets.refusal(hold, outcome.index, outcome.spent, outcome.held);
    const settlement = new JointSettlement(shared, tokens, budget, hold.now, this.logger);
    // Throws the token 429 when the tokens did not fit (nothing was recorded then).
    const reservation = this.limits.tokenReservation(key, tpm, units, outcome.tokens, previous, need, async (actual) => settlement.tokens(actual));
    return { tokens: reservation, budget: this.budgets.holdOf(async (nanos) => settlement.budget(nanos)) };
  }

  private async separately(key: ApiKeyRecord, request: TokenRequest, hold: PreparedHold, previous: LimitState | undefined): Promise<Admission> {
    const [tokens, budget] = await Promise.allSettled([this.limits.reserveRequest(key, request, previous), this.budgets.reservePrepared(hold)]);
    if (tokens.status === 'rejected') {
      if (budget.status === 'fulfilled') budget.value.settle(0);
      throw tokens.reason;
    }
    if (budget.status === 'rejected') {
      void tokens.value.settle(0);
      throw budget.reason;
    }
    return { tokens: tokens.value, budget: budget.value };
  }
}

/**
 * One settle script for both halves, sent once both are known: the tokens when the answer ends,
 * the cost when its ledger row is written (moments apart).
 */
class JointSettlement {
  private actualTokens?: number;
  private actualNanos?: number;
  private readonly madeAt = Date.now();

  constructor(
    private readonly shared: SharedRedis,
    private readonly tokenWindow: JointTokens,
    private readonly budgetHold: JointBudget,
    private readonly now: number,
    private readonly logger: AppLogger,
  ) {}

  tokens(units: number): void {
    this.actualTokens = units;
    this.send();
  }

  budget(nanos: number): void {
    this.actualNanos = nanos;
    this.send();
  }

  private send(): void {
    if (this.actualTokens === undefined || this.actualNanos === undefined) return;
    // On the reservation's clock (tests inject `now`), advanced by real time.
    const at = this.now + (Date.now() - this.madeAt);
    this.shared.joint.settle(this.tokenWindow, this.actualTokens, this.budgetHold, this.actualNanos, at).catch((error: unknown) => {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'limits: joint settlement failed');
    });
  }
}
