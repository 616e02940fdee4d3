import { Inject, Injectable } from '@nestjs/common';
import type { ApiKeyRecord } from '@rosetta/auth';
import { APP_LOGGER, type AppLogger } from '@rosetta/platform';
import { admissionTag } from '../admission-slot';
import { BudgetService, type BudgetHold, type PreparedHold } from '../budget/budget.service';
import type { LimitState } from '../limiter/rate-limit-headers';
import { noTokens, RateLimitService, requestKey, tokenKey, type TokenRequest, type TokenReservation } from '../limiter/rate-limit.service';
import type { RequestCount } from '../limiter/request-count';
import { admissionId } from '../admission-id';
import { JointSettlement } from './joint-settlement';
import type { JointOutcome, JointRequest } from './redis-joint-store';

/** What a request was admitted with: settle both when it ends. */
export interface Admission {
  tokens?: TokenReservation;
  budget?: BudgetHold;
}

/**
 * Requests per minute, tokens per minute and dollar budgets, taken together right before the
 * upstream call (docs/decisions/0016). With Redis answering, the request's count (when the data
 * plane deferred it here), its token reservation and every budget hold are ONE script
 * (RedisJointStore), and so is their settlement: one round trip before the upstream call whatever
 * limits the key has. Otherwise — no Redis, Redis degraded, or a budget counter not yet loaded
 * this period — they are taken separately, each with its own Redis failure policy: the request
 * count first, then tokens and budgets at once, and whichever of those refuses, the other is
 * given back.
 *
 * A script that times out may still have run: its count, reservation and hold then stay counted
 * until they expire (a minute; the hold's time-to-live), never the reverse.
 */
@Injectable()
export class JointAdmissionService {
  constructor(
    private readonly limits: RateLimitService,
    private readonly budgets: BudgetService,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  /**
   * Counts the request against RPM when `count` was deferred to admission (the 429 when the limit
   * is reached), reserves its tokens (RateLimitService.reserveRequest) and holds `maxCostUsd()` in
   * the key's budgets (and `endUser`'s, when the key has an end-user budget). `count.state` is set
   * as soon as the request is counted, refused or not.
   */
  async admit(key: ApiKeyRecord, request: TokenRequest, maxCostUsd: () => number, count?: RequestCount, endUser?: string): Promise<Admission> {
    const now = Date.now();
    const hold = this.budgets.prepare(key, maxCostUsd(), now, request.maxOutput === undefined, endUser);
    return (await this.together(key, request, hold, count, now)) ?? this.separately(key, request, hold, count);
  }

  /** The one script; `undefined` when it cannot decide (the separate paths then do). */
  private async together(key: ApiKeyRecord, request: TokenRequest, hold: PreparedHold | undefined, count: RequestCount | undefined, now: number): Promise<Admission | undefined> {
    const shared = this.limits.sharedRedis();
    if (!shared || (hold && !this.budgets.redisBacked)) return undefined;
    const { rpm } = this.limits.limitsFor(key);
    const { units, tpm, need } = this.limits.tokenNeed(key, request);
    const counting = uncounted(count);
    // One id serves both windows' entries (each window is its own sorted set).
    const id = admissionId();
    const job: JointRequest = {
      windowMs: this.limits.windowMs,
      tag: admissionTag(key),
      requests: counting && rpm !== null ? { keys: shared.windows.keys(requestKey(key)), limit: rpm, member: `${id}:1` } : undefined,
      tokens: tpm === null ? undefined : { keys: shared.windows.keys(tokenKey(key)), units, limit: tpm, member: `${id}:${units}` },
      budget: hold && { counters: hold.counters, amount: hold.amount, holdId: hold.holdId, holdTtlMs: this.budgets.holdTtlMs },
    };
    if (!job.requests && !job.tokens && !job.budget) return { tokens: noTokens(this.counted(key, count, counting, null, null)) };
    let outcome: JointOutcome;
    try {
      outcome = await shared.run(() => shared.joint.admit(job, now));
    } catch {
      return undefined;
    }
    const state = this.counted(key, count, counting, outcome.requests ?? null, outcome.tokens ?? null);
    if (outcome.status === 'requests') this.limits.admitRequest(state);
    if (outcome.status === 'unseeded') return undefined;
    if (outcome.status === 'refused') throw this.budgets.refusal(hold!, outcome.index, outcome.spent, outcome.held);
    if (!job.tokens && !job.budget) return { tokens: noTokens(state) };
    const settlement = new JointSettlement(shared, job, now, this.logger);
    // Throws the token 429 when the tokens did not fit (nothing was recorded then).
    const tokens = job.tokens ? this.limits.tokenReservation(key, tpm!, units, outcome.tokens!, state, need, async (actual) => settlement.tokens(actual)) : noTokens(state);
    // The prepared hold is what job.budget was made of, with the scopes its alerts name.
    return { tokens, budget: job.budget && this.budgets.holdOf(hold!, (nanos) => settlement.budget(nanos)) };
  }

  private async separately(key: ApiKeyRecord, request: TokenRequest, hold: PreparedHold | undefined, count: RequestCount | undefined): Promise<Admission> {
    if (uncounted(count)) {
      count.state = await this.limits.countRequest(key);
      this.limits.admitRequest(count.state);
    }
    const previous = count?.state;
    if (!hold) return { tokens: await this.limits.reserveRequest(key, request, previous) };
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

  /**
   * The request's state after the script: what it counted (sets `count.state`), or what was
   * counted before it. `undefined` token figures are left out (the window was not read).
   */
  private counted(key: ApiKeyRecord, count: RequestCount | undefined, counting: boolean, requests: LimitState['requests'], tokens?: LimitState['tokens']): LimitState {
    const state: LimitState = { plan: key.plan, requests: counting ? requests : count?.state?.requests, tokens };
    if (counting) count!.state = state;
    return state;
  }
}

/** Whether the request still has to be counted here (deferred to admission, not counted yet). */
function uncounted(count: RequestCount | undefined): count is RequestCount {
  return count !== undefined && count.deferred && count.state === undefined;
}
