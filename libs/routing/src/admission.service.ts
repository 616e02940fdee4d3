import { Injectable } from '@nestjs/common';
import type { ApiKeyRecord } from '@rosetta/auth';
import type { CanonicalRequest } from '@rosetta/canonical';
import { BudgetService, JointAdmissionService, RateLimitService, type Admission } from '@rosetta/limits';
import type { RoutePlan } from './attempt';
import { InflightLedgerService } from './inflight/inflight-ledger.service';
import { interruptedRow } from './inflight/inflight-record';
import type { CallContext } from './outcome';

export type { Admission };

/** Estimates can be low (providers tokenise differently): a budget holds this much more prompt. */
const PROMPT_MARGIN = 1.25;

/** Admitted with nothing held: a key without token limits or budgets. */
const NOTHING: Admission = Object.freeze({});

/**
 * Requests per minute (when the data plane deferred the count here), tokens per minute and dollar
 * budgets, checked right before the upstream call — one Redis script for all of them
 * (JointAdmissionService, docs/decisions/0016). The token reservation follows
 * RateLimitService.reserveRequest; the budget hold is the most the request can cost on any
 * endpoint of its plan (every model of a cascade), settled to the ledger's cost.
 */
@Injectable()
export class AdmissionService {
  constructor(
    private readonly limits: RateLimitService,
    private readonly budgets: BudgetService,
    private readonly joint: JointAdmissionService,
    private readonly inflight: InflightLedgerService,
  ) {}

  /**
   * Admits the request, then keeps it in flight (InflightLedgerService) until its ledger row is
   * written: recorded at its reserved cost if this replica dies before that.
   */
  async admit(request: Pick<CanonicalRequest, 'maxOutputTokens'>, ctx: CallContext, promptTokens: number, plan: RoutePlan): Promise<Admission> {
    const admitted = await this.limit(request, ctx, promptTokens, plan);
    const draft = ctx.usage;
    if (draft && draft.recordedCostUsd === undefined) {
      const hold = admitted.budget?.ref;
      const reservedUsd = hold ? hold.amount / 1e9 : maxCostUsd(request, promptTokens, plan);
      this.inflight.open({ row: interruptedRow(draft, plan, promptTokens, reservedUsd), hold });
    }
    return admitted;
  }

  private async limit(request: Pick<CanonicalRequest, 'maxOutputTokens'>, ctx: CallContext, promptTokens: number, plan: RoutePlan): Promise<Admission> {
    const key = ctx.key;
    if (!key) return NOTHING;
    const count = ctx.requestCount;
    const limits = this.limits.limitsFor(key);
    if (limits.tpm === null && this.budgets.scopesFor(key, ctx.endUser).length === 0 && (limits.rpm === null || !count?.deferred || count.state)) {
      // The common case for unlimited keys: nothing to count or reserve, no I/O, no promise to
      // settle; only the request-rate headers of a count already made.
      if (count?.deferred && !count.state) count.state = { plan: key.plan, requests: null, tokens: null };
      if (count?.state?.requests) ctx.setHeaders?.(this.limits.headers({ plan: key.plan, requests: count.state.requests, tokens: null }));
      return NOTHING;
    }
    const endpointMaxOutput = Math.max(0, ...plan.attempts.map((a) => a.target.maxCompletionTokens ?? 0)) || undefined;
    const tokens = { prompt: promptTokens, maxOutput: request.maxOutputTokens, endpointMaxOutput };
    let admitted: Admission;
    try {
      admitted = await this.joint.admit(key, tokens, () => maxCostUsd(request, promptTokens, plan), count, ctx.endUser);
    } catch (error) {
      // A refusal (402, or a 429 with its own headers) still tells the caller where its minute stands.
      if (count?.state) ctx.setHeaders?.(this.limits.headers(count.state));
      throw error;
    }
    if (admitted.tokens) ctx.setHeaders?.(this.limits.headers(admitted.tokens.state));
    return admitted;
  }

  /**
   * Charges `costUsd` to the key's budgets (its own, its team's, its end user's) where the request
   * holds nothing: a guardrail model check's cost on a request stopped before admission took a hold.
   * Not awaited by anyone: a failure is logged (BudgetService.charge).
   */
  chargeUnheld(key: ApiKeyRecord, costUsd: number, endUser?: string): void {
    void this.budgets.charge(key, costUsd, endUser);
  }

  /**
   * A request answered without an upstream call (a response-cache hit) counts against RPM only:
   * no tokens are reserved and no budget is held, so it is served even when a budget is spent.
   */
  async countOnly(ctx: CallContext): Promise<void> {
    const key = ctx.key;
    const count = ctx.requestCount;
    if (!key || !count?.deferred || count.state) return;
    count.state = await this.limits.countRequest(key);
    ctx.setHeaders?.(this.limits.headers(count.state));
    this.limits.admitRequest(count.state);
  }
}

/**
 * The most a request can cost: its prompt (with a margin) and its output cap — or, without one,
 * the endpoint's whole output limit — at the dearest endpoint of its plan; a cascade may call every
 * model of its plan, so there the models' most are added up.
 */
export function maxCostUsd(request: Pick<CanonicalRequest, 'maxOutputTokens'>, promptTokens: number, plan: RoutePlan): number {
  const prompt = Math.ceil(promptTokens * PROMPT_MARGIN);
  const perModel = new Map<string, number>();
  for (const attempt of plan.attempts) {
    const limit = attempt.target.maxCompletionTokens;
    const output = limit === undefined ? (request.maxOutputTokens ?? 0) : Math.min(request.maxOutputTokens ?? limit, limit);
    const price = (value: string | undefined): number => Number(value ?? 0) || 0;
    const cost = prompt * price(attempt.pricing.prompt) + output * price(attempt.pricing.completion) + price(attempt.pricing.request);
    perModel.set(attempt.model, Math.max(perModel.get(attempt.model) ?? 0, cost));
  }
  const costs = [...perModel.values()];
  if (plan.decision?.mode === 'cascade') return costs.reduce((sum, c) => sum + c, 0);
  return Math.max(0, ...costs);
}
