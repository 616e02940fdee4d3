import { Injectable } from '@nestjs/common';
import type { CanonicalRequest } from '@rosetta/canonical';
import { BudgetService, JointAdmissionService, RateLimitService, type Admission } from '@rosetta/limits';
import type { RoutePlan } from './attempt';
import type { CallContext } from './outcome';

export type { Admission };

/** Estimates can be low (providers tokenise differently): a budget holds this much more prompt. */
const PROMPT_MARGIN = 1.25;

/** Admitted with nothing held: a key without token limits or budgets. */
const NOTHING: Admission = Object.freeze({});

/**
 * Tokens per minute and dollar budgets, checked right before the upstream call (see
 * JointAdmissionService: one Redis script for both when it can). The token reservation follows
 * RateLimitService.reserveRequest; the budget hold is the most the request can cost on any
 * endpoint of its plan (every model of a cascade), settled to the ledger's cost.
 */
@Injectable()
export class AdmissionService {
  constructor(
    private readonly limits: RateLimitService,
    private readonly budgets: BudgetService,
    private readonly joint: JointAdmissionService,
  ) {}

  async admit(request: Pick<CanonicalRequest, 'maxOutputTokens'>, ctx: CallContext, promptTokens: number, plan: RoutePlan): Promise<Admission> {
    const key = ctx.key;
    if (!key) return NOTHING;
    if (this.limits.limitsFor(key).tpm === null && this.budgets.scopesFor(key).length === 0) {
      // The common case for unlimited keys: nothing to reserve, no I/O, no promise to settle; only
      // the request-rate headers the guard found, as a token reservation would have carried them.
      if (ctx.rateLimit?.requests) ctx.setHeaders?.(this.limits.headers({ plan: key.plan, requests: ctx.rateLimit.requests, tokens: null }));
      return NOTHING;
    }
    const endpointMaxOutput = Math.max(0, ...plan.attempts.map((a) => a.target.maxCompletionTokens ?? 0)) || undefined;
    const tokens = { prompt: promptTokens, maxOutput: request.maxOutputTokens, endpointMaxOutput };
    const admitted = await this.joint.admit(key, tokens, () => maxCostUsd(request, promptTokens, plan), ctx.rateLimit);
    if (admitted.tokens) ctx.setHeaders?.(this.limits.headers(admitted.tokens.state));
    return admitted;
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
