import { Injectable } from '@nestjs/common';
import { addUsage, totalTokens, type CanonicalRequest, type CanonicalResponse, type StreamEvent, type Usage } from '@rosetta/canonical';
import { estimatePromptTokens, type BudgetHold, type TokenReservation } from '@rosetta/limits';
import { costUsd, UsageRecorderService, type TokenPricing, type UsageDraft } from '@rosetta/usage';
import { AdmissionService } from './admission.service';
import type { RoutePlan } from './attempt';
import { MixtureService } from './mixture.service';
import { ExecutorService } from './executor.service';
import type { CallContext, ChatStream, CompletionOutcome } from './outcome';
import { RoutingService } from './routing.service';

/**
 * The one entry point every dialect controller calls: plan, reserve the token budget, execute,
 * settle. The reservation follows RateLimitService.reserveRequest's policy; it is settled to the
 * upstream's reported usage when the response ends, fails, or the stream is cut.
 */
@Injectable()
export class ChatService {
  constructor(
    private readonly routing: RoutingService,
    private readonly executor: ExecutorService,
    private readonly admission: AdmissionService,
    private readonly recorder: UsageRecorderService,
    private readonly mixture: MixtureService,
  ) {}

  /** Budget holds by ledger draft, settled to the row's cost when the response closes. */
  private readonly holds = new WeakMap<UsageDraft, BudgetHold>();

  /**
   * Records the request's ledger row, and charges its cost to its budgets; called once, when its
   * response has closed. A client that disconnects while admission waits on Redis closes it before
   * the hold exists: the draft keeps the recorded cost, and `admit` settles the late hold to it.
   */
  recordUsage(draft: UsageDraft, status: number): void {
    const row = this.recorder.record(draft, status);
    draft.closed(row.costUsd);
    this.holds.get(draft)?.settle(row.costUsd);
  }

  async complete(request: CanonicalRequest, ctx: CallContext): Promise<CompletionOutcome> {
    const promptTokens = estimatePromptTokens(request);
    const sticky = this.routing.isAuto(request.model) ? await this.mixture.session(request, ctx.key) : undefined;
    const plan = this.routing.plan(request, promptTokens, { knob: ctx.key?.routeKnob, allowed: ctx.key?.models, sticky });
    ctx.usage?.planned(request.model, false, plan.route);
    const reservation = await this.admit(request, ctx, promptTokens, plan);
    try {
      const cascaded = plan.decision?.mode === 'cascade';
      const outcome = cascaded ? await this.cascade(plan, request, ctx) : await this.executor.complete(plan, request, ctx);
      // A cascade already noted the tokens and cost of every model it activated.
      ctx.usage?.served(outcome.meta.model, outcome.meta.provider, outcome.meta.pricing);
      if (!cascaded) ctx.usage?.reported(outcome.response.usage);
      this.mixture.remember(sticky, outcome.meta.model);
      const used = cascaded ? ctx.usage?.usage : outcome.response.usage;
      priceAnswer(outcome, cascaded ? ctx.usage?.costUsd : costUsd(outcome.response.usage, outcome.meta.pricing));
      // Not awaited: the settle is queued on the limiter's Redis connection before anything a
      // later request sends, so the order holds without a round trip before the answer.
      void reservation?.settle(used ? totalTokens(used) : promptTokens);
      return outcome;
    } catch (error) {
      void reservation?.settle(0);
      throw error;
    }
  }

  async stream(request: CanonicalRequest, ctx: CallContext): Promise<ChatStream> {
    const promptTokens = estimatePromptTokens(request);
    const sticky = this.routing.isAuto(request.model) ? await this.mixture.session(request, ctx.key) : undefined;
    const plan = this.routing.plan(request, promptTokens, { knob: ctx.key?.routeKnob, allowed: ctx.key?.models, sticky });
    ctx.usage?.planned(request.model, true, plan.route);
    const reservation = await this.admit(request, ctx, promptTokens, plan);
    try {
      const outcome = await this.executor.stream(plan, request, ctx);
      ctx.usage?.served(outcome.meta.model, outcome.meta.provider, outcome.meta.pricing);
      this.mixture.remember(sticky, outcome.meta.model);
      return { ...outcome, promptTokens, events: settleWhenDone(outcome.events, { reservation, promptTokens, draft: ctx.usage, pricing: outcome.meta.pricing, ctx }) };
    } catch (error) {
      void reservation?.settle(0);
      throw error;
    }
  }

  /**
   * rosetta/auto's cascade: the plan's models are called in order — the cheap ones first — and
   * the router accepts as soon as their answers agree (or look sure), escalating otherwise. The
   * client gets the accepted answer; the ledger is charged for every model activated.
   */
  private async cascade(plan: RoutePlan, request: CanonicalRequest, ctx: CallContext): Promise<CompletionOutcome> {
    const decision = plan.decision!;
    const answered = new Map<string, CompletionOutcome>();
    let usage: Usage | undefined;
    let cost = 0;
    for (let step = 0; step <= decision.plan.length; step++) {
      const next = this.mixture.cascadeStep(request, decision, [...answered].map(([model, o]) => ({ model, text: textOf(o.response) })));
      const accepted = next.action === 'accept' ? answered.get(next.model) : undefined;
      const attempts = plan.attempts.filter((a) => a.model === next.model);
      if (accepted || attempts.length === 0 || answered.has(next.model)) break;
      const outcome = await this.executor.complete({ ...plan, attempts }, request, ctx);
      answered.set(next.model, outcome);
      if (outcome.response.usage) usage = addUsage(usage, outcome.response.usage);
      cost += costUsd(outcome.response.usage, outcome.meta.pricing);
      // Noted after every step: a later model that fails must not erase what earlier ones cost.
      ctx.usage?.cascaded(usage, cost, answered.size);
    }
    const final = this.pick(answered, request, decision);
    return { ...final, meta: { ...final.meta, route: `${plan.route}; activated=${[...answered.keys()].join('>')}` } };
  }

  private pick(answered: Map<string, CompletionOutcome>, request: CanonicalRequest, decision: NonNullable<RoutePlan['decision']>): CompletionOutcome {
    const step = this.mixture.cascadeStep(request, decision, [...answered].map(([model, o]) => ({ model, text: textOf(o.response) })));
    return (step.action === 'accept' ? answered.get(step.model) : undefined) ?? [...answered.values()].at(-1)!;
  }

  /**
   * Tokens and budgets before the call; the budget hold waits for the ledger row's cost (recordUsage).
   * Embeddings are admitted here too (no output), so one place keeps the holds.
   */
  async admit(request: Pick<CanonicalRequest, 'maxOutputTokens'>, ctx: CallContext, promptTokens: number, plan: RoutePlan): Promise<TokenReservation | undefined> {
    const admitted = await this.admission.admit(request, ctx, promptTokens, plan);
    const recordedCost = ctx.usage?.recordedCostUsd;
    if (admitted.budget && ctx.usage && recordedCost === undefined) this.holds.set(ctx.usage, admitted.budget);
    else admitted.budget?.settle(recordedCost ?? 0);
    return admitted.tokens;
  }
}

/**
 * Settles once the stream is over: to the reported usage, or — when the stream was cut before
 * usage arrived — to the prompt plus an estimate of the output already relayed.
 */
async function* settleWhenDone(
  events: AsyncIterable<StreamEvent>,
  { reservation, promptTokens, draft, pricing, ctx }: { reservation?: TokenReservation; promptTokens: number; draft?: UsageDraft; pricing?: TokenPricing; ctx?: CallContext },
): AsyncGenerator<StreamEvent> {
  let usage: number | undefined;
  let outputChars = 0;
  // Reported usage, or the prompt and the output relayed so far: what a cut stream is charged.
  const fillUsage = (): void => draft?.cutShort(promptTokens, outputChars);
  ctx?.beforeRecord?.(fillUsage);
  try {
    for await (const event of events) {
      if (event.type === 'text-delta' || event.type === 'thinking-delta') outputChars += event.text.length;
      if (event.type === 'tool-call-delta') outputChars += event.argumentsDelta.length;
      if (draft && draft.ttftMs === undefined && event.type !== 'start' && event.type !== 'usage') draft.firstToken();
      if (event.type === 'usage' || (event.type === 'finish' && event.usage)) {
        const reported = event.usage!;
        usage = totalTokens(reported);
        draft?.reported(reported);
        // The caller sees what it is charged in the usage it is sent (dialect A's usage.cost).
        yield { ...event, usage: { ...reported, costUsd: costUsd(reported, pricing) } };
        continue;
      }
      if (event.type === 'error') draft?.failed(event.error.type);
      yield event;
    }
  } finally {
    fillUsage();
    void reservation?.settle(usage ?? promptTokens + Math.ceil(outputChars / 4));
  }
}

/** Puts the answer's cost in its usage (dialect A's usage.cost) and its meta (x-rosetta-cost-usd). */
function priceAnswer(outcome: CompletionOutcome, cost: number | undefined): void {
  if (cost === undefined) return;
  outcome.meta.costUsd = cost;
  // The decoded answer's own usage object (no one else holds it to compare): set, not copied.
  if (outcome.response.usage) outcome.response.usage.costUsd = cost;
}

function textOf(response: CanonicalResponse): string {
  return response.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}
