import { Injectable } from '@nestjs/common';
import { addUsage, totalTokens, type CanonicalRequest, type CanonicalResponse, type StreamEvent, type Usage } from '@rosetta/canonical';
import { estimatePromptTokens, RateLimitService, type TokenReservation } from '@rosetta/limits';
import { costUsd, UsageRecorderService, type UsageDraft } from '@rosetta/usage';
import type { RoutePlan } from './attempt';
import { MixtureService } from './mixture.service';
import { ExecutorService } from './executor.service';
import type { CallContext, CompletionOutcome, StreamOutcome } from './outcome';
import { RoutingService } from './routing.service';

/** Output tokens reserved when the client set no output cap; settlement corrects it. */
const DEFAULT_OUTPUT_RESERVATION = 1024;

/**
 * The one entry point every dialect controller calls: plan, reserve the token budget, execute,
 * settle. The reservation is the estimated prompt plus the requested output (never more than the
 * plan's whole minute, so a large cap cannot make a request impossible); it is settled to the
 * upstream's reported usage when the response ends, fails, or the stream is cut.
 */
@Injectable()
export class ChatService {
  constructor(
    private readonly routing: RoutingService,
    private readonly executor: ExecutorService,
    private readonly limits: RateLimitService,
    private readonly recorder: UsageRecorderService,
    private readonly mixture: MixtureService,
  ) {}

  /** Records the request's ledger row; called once, when its response has closed. */
  recordUsage(draft: UsageDraft, status: number): void {
    this.recorder.record(draft, status);
  }

  async complete(request: CanonicalRequest, ctx: CallContext): Promise<CompletionOutcome> {
    const promptTokens = estimatePromptTokens(request);
    const plan = this.routing.plan(request, promptTokens, { knob: ctx.key?.routeKnob });
    note(ctx, { requestedModel: request.model, streamed: false, route: plan.route });
    const reservation = await this.reserve(request, ctx, promptTokens);
    try {
      const cascaded = plan.decision?.mode === 'cascade';
      const outcome = cascaded ? await this.cascade(plan, request, ctx) : await this.executor.complete(plan, request, ctx);
      // A cascade already noted the tokens and cost of every model it activated.
      note(ctx, { servedModel: outcome.meta.model, provider: outcome.meta.provider, pricing: outcome.meta.pricing, usage: cascaded ? undefined : outcome.response.usage });
      const used = cascaded ? ctx.usage?.usage : outcome.response.usage;
      // Not awaited: the settle is queued on the limiter's Redis connection before anything a
      // later request sends, so the order holds without a round trip before the answer.
      void reservation?.settle(used ? totalTokens(used) : promptTokens);
      return outcome;
    } catch (error) {
      void reservation?.settle(0);
      throw error;
    }
  }

  async stream(request: CanonicalRequest, ctx: CallContext): Promise<StreamOutcome> {
    const promptTokens = estimatePromptTokens(request);
    const plan = this.routing.plan(request, promptTokens, { knob: ctx.key?.routeKnob });
    note(ctx, { requestedModel: request.model, streamed: true, route: plan.route });
    const reservation = await this.reserve(request, ctx, promptTokens);
    try {
      const outcome = await this.executor.stream(plan, request, ctx);
      note(ctx, { servedModel: outcome.meta.model, provider: outcome.meta.provider, pricing: outcome.meta.pricing });
      return { ...outcome, events: settleWhenDone(outcome.events, reservation, promptTokens, ctx.usage) };
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
    }
    const final = this.pick(answered, request, decision);
    note(ctx, { usage, costUsd: cost, attempts: answered.size });
    return { ...final, meta: { ...final.meta, route: `${plan.route}; activated=${[...answered.keys()].join('>')}` } };
  }

  private pick(answered: Map<string, CompletionOutcome>, request: CanonicalRequest, decision: NonNullable<RoutePlan['decision']>): CompletionOutcome {
    const step = this.mixture.cascadeStep(request, decision, [...answered].map(([model, o]) => ({ model, text: textOf(o.response) })));
    return (step.action === 'accept' ? answered.get(step.model) : undefined) ?? [...answered.values()].at(-1)!;
  }

  private async reserve(request: CanonicalRequest, ctx: CallContext, promptTokens: number): Promise<TokenReservation | undefined> {
    if (!ctx.key) return undefined;
    const { tpm } = this.limits.limitsFor(ctx.key);
    const wanted = promptTokens + (request.maxOutputTokens ?? DEFAULT_OUTPUT_RESERVATION);
    const amount = tpm === null ? wanted : Math.min(wanted, Math.max(promptTokens, tpm));
    const reservation = await this.limits.reserveTokens(ctx.key, amount, undefined, ctx.rateLimit);
    ctx.setHeaders?.(this.limits.headers(reservation.state));
    return reservation;
  }
}

/**
 * Settles once the stream is over: to the reported usage, or — when the stream was cut before
 * usage arrived — to the prompt plus an estimate of the output already relayed.
 */
async function* settleWhenDone(
  events: AsyncIterable<StreamEvent>,
  reservation: TokenReservation | undefined,
  promptTokens: number,
  draft: UsageDraft | undefined,
): AsyncGenerator<StreamEvent> {
  let usage: number | undefined;
  let outputChars = 0;
  try {
    for await (const event of events) {
      if (event.type === 'text-delta' || event.type === 'thinking-delta') outputChars += event.text.length;
      if (event.type === 'tool-call-delta') outputChars += event.argumentsDelta.length;
      if (draft && draft.ttftMs === undefined && event.type !== 'start' && event.type !== 'usage') draft.ttftMs = Date.now() - draft.startedAt;
      if (event.type === 'usage' || (event.type === 'finish' && event.usage)) {
        const reported = event.usage!;
        usage = totalTokens(reported);
        if (draft) draft.usage = reported;
      }
      if (event.type === 'error' && draft) draft.errorType = event.error.type;
      yield event;
    }
  } finally {
    const estimated = promptTokens + Math.ceil(outputChars / 4);
    if (draft && !draft.usage) draft.usage = { inputTokens: promptTokens, outputTokens: Math.ceil(outputChars / 4) };
    void reservation?.settle(usage ?? estimated);
  }
}

function textOf(response: CanonicalResponse): string {
  return response.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

function note(ctx: CallContext, fields: Partial<UsageDraft>): void {
  if (!ctx.usage) return;
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) (ctx.usage as unknown as Record<string, unknown>)[name] = value;
}
