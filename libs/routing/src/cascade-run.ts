/**
 * rosetta/auto's cascade, step by step: the plan's models are called in order — the cheap ones
 * first, non-streamed — and the router accepts as soon as their answers settle it, escalating
 * otherwise. The ledger is charged for every model activated, after every step, so a later failure
 * does not erase what the earlier ones cost.
 *
 * A streamed request cascades only when the decision is made before its first byte: the probes
 * are short non-streamed calls (multiple choice, where answers compare), and then either the
 * accepted answer is replayed as the stream, or the escalation model is streamed as usual.
 */
import { addUsage, type CanonicalRequest, type Usage } from '@rosetta/canonical';
import type { CascadeStep } from '@rosetta/mixture';
import { costUsd } from '@rosetta/usage';
import type { RoutePlan } from './attempt';
import type { CallContext, CompletionOutcome } from './outcome';

export interface CascadeDeps {
  step(request: CanonicalRequest, plan: RoutePlan, answered: Map<string, CompletionOutcome>): CascadeStep;
  complete(plan: RoutePlan, request: CanonicalRequest, ctx: CallContext): Promise<CompletionOutcome>;
}

export interface CascadeProgress {
  /** Every model called so far, in order, with its answer. */
  answered: Map<string, CompletionOutcome>;
  usage?: Usage;
  costUsd: number;
  /** The accepted answer, once the router accepted one. */
  accepted?: CompletionOutcome;
  /** The model the router would call next when the run stopped before it (streams: the escalation). */
  next?: string;
}

/**
 * Runs the cascade until an answer is accepted, the plan is exhausted, or (streams) the next model
 * is one `stopBefore` keeps for the caller to call itself.
 */
export async function runCascade(deps: CascadeDeps, plan: RoutePlan, request: CanonicalRequest, ctx: CallContext, stopBefore?: (model: string) => boolean): Promise<CascadeProgress> {
  const decision = plan.decision!;
  const progress: CascadeProgress = { answered: new Map(), costUsd: 0 };
  for (let step = 0; step <= decision.plan.length; step++) {
    const next = deps.step(request, plan, progress.answered);
    if (next.action === 'accept') {
      progress.accepted = progress.answered.get(next.model);
      if (progress.accepted) return progress;
    }
    const attempts = plan.attempts.filter((a) => a.model === next.model);
    if (attempts.length === 0 || progress.answered.has(next.model)) break;
    if (stopBefore?.(next.model)) return { ...progress, next: next.model };
    const outcome = await deps.complete({ ...plan, attempts }, request, ctx);
    progress.answered.set(next.model, outcome);
    if (outcome.response.usage) progress.usage = addUsage(progress.usage, outcome.response.usage);
    progress.costUsd += costUsd(outcome.response.usage, outcome.meta.pricing);
    // Noted after every step: a later model that fails must not erase what earlier ones cost.
    ctx.usage?.cascaded(progress.usage, progress.costUsd, progress.answered.size);
  }
  return progress;
}
