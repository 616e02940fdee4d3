import { Injectable } from '@nestjs/common';
import type { CachedAnswer } from '@rosetta/cache';
import { addUsage, GatewayError, replayAsStream, totalTokens, type CanonicalRequest, type CanonicalResponse, type StreamEvent, type Usage } from '@rosetta/canonical';
import { runCascade, type CascadeDeps, type CascadeProgress } from './cascade-run';
import { estimatePromptTokens, type BudgetHold, type TokenReservation } from '@rosetta/limits';
import { capCost, costUsd, roundUsd, UsageRecorderService, type TokenPricing, type UsageDraft } from '@rosetta/usage';
import { AdmissionService } from './admission.service';
import type { RoutePlan } from './attempt';
import { MixtureService } from './mixture.service';
import type { Stickiness } from './session-affinity.service';
import { ClientAbortedError } from './gateway-errors';
import { ExecutorService } from './executor.service';
import { GuardrailService } from './guardrails/guardrail.service';
import type { CallContext, ChatStream, CompletionOutcome, ServedMeta, StreamOutcome } from './outcome';
import { ResponseCachingService } from './response-caching.service';
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
    private readonly caching: ResponseCachingService,
    private readonly guardrails: GuardrailService,
  ) {}

  /** Budget holds by ledger draft, settled to the row's cost when the response closes. */
  private readonly holds = new WeakMap<UsageDraft, BudgetHold>();

  /** Drafts whose cost was charged to their budgets without a hold (chargeUnheld): a late hold settles nothing. */
  private readonly chargedApart = new WeakSet<UsageDraft>();

  /**
   * Records the request's ledger row, and charges its cost to its budgets; called once, when its
   * response has closed. A client that disconnects while admission waits on Redis closes it before
   * the hold exists: the draft keeps the recorded cost, and `admit` settles the late hold to it.
   * A row with a guardrail model check's cost and no hold (the check blocked it, or it was refused
   * or answered from the cache before a hold was taken) is charged to the budgets as it stands, so
   * they count what the ledger does.
   */
  recordUsage(draft: UsageDraft, status: number, ctx?: Pick<CallContext, 'key' | 'endUser'>): void {
    const hold = this.holds.get(draft);
    if (hold) draft.chargeCapUsd = hold.capUsd;
    const row = this.recorder.record(draft, status);
    draft.closed(row.costUsd);
    if (hold) hold.settle(row.costUsd);
    else if (draft.checkCostUsd !== undefined && ctx?.key && row.costUsd > 0) {
      this.chargedApart.add(draft);
      this.admission.chargeUnheld(ctx.key, row.costUsd, ctx.endUser);
    }
  }

  /** What the request is charged for `cost`: within its budget hold's cap, when it has one. */
  private charged(ctx: CallContext, cost: number): number {
    return capCost(cost, ctx.usage && this.holds.get(ctx.usage)?.capUsd).charged;
  }

  /**
   * The route plan, noted on the ledger draft. A model that resolved but that nobody serves (or
   * can serve now) is still noted as asked for, so its row names the model the operator must serve.
   */
  private plan(request: CanonicalRequest, ctx: CallContext, promptTokens: number, sticky: Stickiness | undefined, streamed: boolean): RoutePlan {
    try {
      const plan = this.routing.plan(request, promptTokens, { knob: ctx.key?.routeKnob, allowed: ctx.key?.models, sticky });
      ctx.usage?.planned(request.model, streamed, plan.route, promptTokens);
      return plan;
    } catch (error) {
      if (error instanceof GatewayError && (error.type === 'configuration_error' || error.type === 'overloaded_error')) ctx.usage?.planned(request.model, streamed, undefined);
      throw error;
    }
  }

  /**
   * Guardrails (decision 0030): input first (a redacted prompt is routed, cached, sent, and is what
   * a trace capturing content keeps; a blocked one is never captured), output on any answer.
   */
  async complete(original: CanonicalRequest, ctx: CallContext): Promise<CompletionOutcome> {
    const guard = this.guardrails.policyFor(ctx);
    if (!guard) {
      ctx.trace?.input(original);
      return this.answer(original, ctx);
    }
    const asked = guard.input ? await this.guardrails.admitInput(original, ctx, guard) : original;
    ctx.trace?.input(asked);
    const outcome = await this.answer(asked, ctx);
    return guard.output ? this.guardrails.admitAnswer(outcome, ctx, guard) : outcome;
  }

  private async answer(asked: CanonicalRequest, ctx: CallContext): Promise<CompletionOutcome> {
    const promptTokens = estimatePromptTokens(asked);
    const { request, ticket } = this.caching.prepare(asked, ctx, promptTokens);
    // The lookup's round trip overlaps the routing (it never rejects: a store that fails is a miss).
    const lookup = ticket && this.caching.lookup(ticket, ctx);
    const sticky = this.routing.isAuto(request.model) ? await this.mixture.session(request, ctx.key) : undefined;
    const plan = this.plan(request, ctx, promptTokens, sticky, false);
    // Without a cache, no await at all: the request goes on in the same tick, as before.
    const hit = lookup && (await lookup);
    if (hit) return this.fromCache(hit, request, ctx, promptTokens, false);
    const reservation = await this.admit(request, ctx, promptTokens, plan);
    try {
      const cascaded = plan.decision?.mode === 'cascade';
      const outcome = cascaded ? await this.cascade(plan, request, ctx) : await this.executor.complete(plan, request, ctx);
      // A cascade already noted the tokens and cost of every model it activated.
      ctx.usage?.served(outcome.meta.model, outcome.meta.provider, outcome.meta.pricing);
      if (!cascaded) ctx.usage?.reported(outcome.response.usage);
      this.mixture.remember(sticky, outcome.meta.model);
      const used = cascaded ? ctx.usage?.usage : outcome.response.usage;
      const cost = cascaded ? ctx.usage?.costUsd : costUsd(outcome.response.usage, outcome.meta.pricing);
      if (ticket) this.caching.store(ticket, outcome.response, outcome.meta, cost ?? 0);
      priceAnswer(outcome, cost === undefined ? undefined : this.charged(ctx, cost));
      // Not awaited: the settle is queued on the limiter's Redis connection before anything a
      // later request sends, so the order holds without a round trip before the answer.
      void reservation?.settle(used ? totalTokens(used) : promptTokens);
      return outcome;
    } catch (error) {
      void reservation?.settle(abandonedTokens(error, ctx, promptTokens));
      throw error;
    }
  }

  /**
   * `passThrough`: the client's dialect can take the upstream's own frames (docs/decisions/0017);
   * a cascade never streams them (its usage adds the probes').
   */
  async stream(original: CanonicalRequest, ctx: CallContext, options: { passThrough?: boolean } = {}): Promise<ChatStream> {
    const guard = this.guardrails.policyFor(ctx);
    const asked = guard?.input ? await this.guardrails.admitInput(original, ctx, guard) : original;
    ctx.trace?.input(asked);
    // Output checks read the text: the stream is decoded, never the upstream's frames passed on.
    const output = guard?.output ? guard : undefined;
    const guarded = (events: AsyncIterable<StreamEvent>): AsyncIterable<StreamEvent> => (output ? this.guardrails.guardStream(events, ctx, output) : events);
    const promptTokens = estimatePromptTokens(asked);
    const { request, ticket } = this.caching.prepare(asked, ctx, promptTokens);
    const lookup = ticket && this.caching.lookup(ticket, ctx);
    const sticky = this.routing.isAuto(request.model) ? await this.mixture.session(request, ctx.key) : undefined;
    const plan = this.plan(request, ctx, promptTokens, sticky, true);
    // Without a cache, no await at all: the request goes on in the same tick, as before.
    const hit = lookup && (await lookup);
    if (hit) {
      const { response, meta } = await this.fromCache(hit, request, ctx, promptTokens, true);
      return { events: settleWhenDone(guarded(replayAsStream(response)), { promptTokens, draft: ctx.usage, ctx }), meta, promptTokens };
    }
    const reservation = await this.admit(request, ctx, promptTokens, plan);
    try {
      const cascaded = plan.decision?.mode === 'cascade' ? await this.streamCascade(plan, request, ctx) : undefined;
      // An answer to be stored is decoded whole: the upstream's own frames cannot be put back together.
      const outcome = cascaded?.outcome ?? (await this.executor.stream(plan, request, ctx, options.passThrough && !ticket && !output));
      ctx.usage?.served(outcome.meta.model, outcome.meta.provider, outcome.meta.pricing);
      this.mixture.remember(sticky, outcome.meta.model);
      const settle = { reservation, promptTokens, draft: ctx.usage, pricing: outcome.meta.pricing, ctx, probes: cascaded?.probes, replayed: cascaded?.replayed, charged: (cost: number) => this.charged(ctx, cost) };
      const events = ticket ? this.caching.storeWhenDone(outcome.events, ticket, outcome.meta, (answer) => ctx.usage?.costUsd ?? costUsd(answer.usage, outcome.meta.pricing)) : outcome.events;
      return { ...outcome, promptTokens, events: settleWhenDone(guarded(events), settle) };
    } catch (error) {
      void reservation?.settle(abandonedTokens(error, ctx, promptTokens));
      throw error;
    }
  }

  /**
   * A response-cache hit: counted against RPM only (no tokens, no budget), recorded at cost 0 with
   * what it saved, and answered with the stored answer under a new id.
   */
  private async fromCache(hit: CachedAnswer, request: CanonicalRequest, ctx: CallContext, promptTokens: number, streamed: boolean): Promise<CompletionOutcome> {
    await this.admission.countOnly(ctx);
    const response = this.caching.served(hit, ctx);
    ctx.usage?.planned(request.model, streamed, 'cache hit', promptTokens);
    ctx.usage?.cacheHit(hit.model, hit.provider, hit.response.usage, hit.costUsd);
    const meta: ServedMeta = { model: hit.model, provider: hit.provider, protocol: hit.protocol, attempts: 0, route: 'cache hit', warnings: [], costUsd: 0 };
    return { response, meta };
  }

  /** rosetta/auto's cascade (cascade-run.ts): the client gets the accepted answer, the ledger every model's cost. */
  private async cascade(plan: RoutePlan, request: CanonicalRequest, ctx: CallContext): Promise<CompletionOutcome> {
    const progress = await runCascade(this.cascadeDeps, plan, request, ctx);
    const final = progress.accepted ?? this.pick(progress.answered, request, plan);
    return { ...final, meta: { ...final.meta, route: `${plan.route}; activated=${[...progress.answered.keys()].join('>')}` } };
  }

  private readonly cascadeDeps: CascadeDeps = {
    step: (request, plan, answered) => this.mixture.cascadeStep(request, plan.decision!, [...answered].map(([model, o]) => ({ model, text: textOf(o.response) }))),
    complete: (plan, request, ctx) => this.executor.complete(plan, request, ctx),
  };

  private pick(answered: Map<string, CompletionOutcome>, request: CanonicalRequest, plan: RoutePlan): CompletionOutcome {
    const step = this.cascadeDeps.step(request, plan, answered);
    return (step.action === 'accept' ? answered.get(step.model) : undefined) ?? [...answered.values()].at(-1)!;
  }

  /**
   * A streamed cascade, decided before the first byte: the cheap probes run non-streamed; an
   * accepted answer is replayed as the stream, otherwise the escalation model streams. The ledger
   * row and the usage the client sees add the probes to the streamed answer.
   */
  private async streamCascade(plan: RoutePlan, request: CanonicalRequest, ctx: CallContext): Promise<{ outcome: StreamOutcome } & Pick<SettleOptions, 'probes' | 'replayed'>> {
    const escalation = plan.decision!.plan.at(-1);
    const probes = await runCascade(this.cascadeDeps, plan, { ...request, stream: false }, ctx, (model) => model === escalation);
    const activated = (extra: string[]) => `${plan.route}; activated=${[...probes.answered.keys(), ...extra].join('>')}`;
    const replayed = probes.accepted ?? (probes.next === undefined ? [...probes.answered.values()].at(-1) : undefined);
    if (replayed) {
      return { outcome: { events: replayAsStream(replayed.response), meta: { ...replayed.meta, route: activated([]) } }, replayed: true };
    }
    // Nothing answered and nothing left to call (no endpoint of the plan's models): stream the plan as routed.
    const attempts = probes.next === undefined ? plan.attempts : plan.attempts.filter((a) => a.model === probes.next);
    const outcome = await this.executor.stream({ ...plan, attempts }, request, ctx);
    return { outcome: { ...outcome, meta: { ...outcome.meta, route: activated([outcome.meta.model]) } }, ...(probes.answered.size > 0 ? { probes } : {}) };
  }

  /**
   * Tokens and budgets before the call; the budget hold waits for the ledger row's cost (recordUsage).
   * Embeddings are admitted here too (no output), so one place keeps the holds.
   */
  async admit(request: Pick<CanonicalRequest, 'maxOutputTokens'>, ctx: CallContext, promptTokens: number, plan: RoutePlan): Promise<TokenReservation | undefined> {
    const admitted = await this.admission.admit(request, ctx, promptTokens, plan);
    const recordedCost = ctx.usage?.recordedCostUsd;
    if (admitted.budget && ctx.usage && recordedCost === undefined) this.holds.set(ctx.usage, admitted.budget);
    else admitted.budget?.settle(ctx.usage && this.chargedApart.has(ctx.usage) ? 0 : (recordedCost ?? 0));
    return admitted.tokens;
  }
}

interface SettleOptions {
  reservation?: TokenReservation;
  promptTokens: number;
  draft?: UsageDraft;
  pricing?: TokenPricing;
  ctx?: CallContext;
  /** A streamed cascade that escalated: the probes' usage and cost join the streamed answer's. */
  probes?: CascadeProgress;
  /** A streamed cascade answered by a probe: the draft already holds every model's usage and cost. */
  replayed?: boolean;
  /** What the request is charged for a cost (its budget hold's cap). */
  charged?(cost: number): number;
}

/**
 * Settles once the stream is over: to the reported usage, or — when the stream was cut before
 * usage arrived — to the prompt plus an estimate of the output already relayed.
 */
async function* settleWhenDone(events: AsyncIterable<StreamEvent>, options: SettleOptions): AsyncGenerator<StreamEvent> {
  const { reservation, promptTokens, draft, ctx } = options;
  let usage: number | undefined;
  let outputChars = 0;
  // Reported usage, or the prompt and the output relayed so far: what a cut stream is charged.
  const fillUsage = (): void => {
    if (options.probes && usage === undefined) charge({ inputTokens: promptTokens, outputTokens: Math.ceil(outputChars / 4) }, options);
    else draft?.cutShort(promptTokens, outputChars);
  };
  ctx?.beforeRecord?.(fillUsage);
  try {
    for await (const event of events) {
      outputChars += outputCharsOf(event);
      if (draft && draft.ttftMs === undefined && isOutput(event)) draft.firstToken();
      if (event.type === 'usage' || (event.type === 'finish' && event.usage)) {
        const reported = event.usage!;
        const charged = charge(reported, options);
        usage = totalTokens(charged.usage);
        // The caller sees what it is charged in the usage it is sent (dialect A's usage.cost).
        yield { ...event, usage: { ...reported, costUsd: options.charged ? options.charged(charged.costUsd) : charged.costUsd } };
        continue;
      }
      if (event.type === 'error') draft?.failedBy(event.error);
      yield event;
    }
  } finally {
    fillUsage();
    void reservation?.settle(usage ?? promptTokens + Math.ceil(outputChars / 4));
  }
}

function outputCharsOf(event: StreamEvent): number {
  if (event.type === 'text-delta' || event.type === 'thinking-delta') return event.text.length;
  if (event.type === 'tool-call-delta') return event.argumentsDelta.length;
  return event.type === 'wire' ? event.outputChars : 0;
}

/** The first token's time: any event past the opening, or a forwarded frame that carries output. */
function isOutput(event: StreamEvent): boolean {
  return event.type === 'wire' ? event.content : event.type !== 'start' && event.type !== 'usage';
}

/** Notes the streamed answer's usage on the ledger draft; returns what the request is charged in all. */
function charge(reported: Usage, { draft, pricing, probes, replayed }: SettleOptions): { usage: Usage; costUsd: number } {
  if (replayed) return { usage: draft?.usage ?? reported, costUsd: draft?.costUsd ?? costUsd(reported, pricing) };
  if (probes) {
    const all = { usage: addUsage(probes.usage, reported), costUsd: roundUsd(probes.costUsd + costUsd(reported, pricing)) };
    draft?.cascaded(all.usage, all.costUsd, probes.answered.size + 1);
    return all;
  }
  draft?.reported(reported);
  return { usage: reported, costUsd: costUsd(reported, pricing) };
}

/** A request that failed before its answer holds the prompt's tokens when its client left after the call went out (the draft charges them too). */
function abandonedTokens(error: unknown, ctx: CallContext, promptTokens: number): number {
  return error instanceof ClientAbortedError && (ctx.usage?.attempts ?? 0) > 0 ? promptTokens : 0;
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
