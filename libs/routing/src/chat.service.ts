import { Injectable } from '@nestjs/common';
import { totalTokens, type CanonicalRequest, type StreamEvent } from '@rosetta/canonical';
import { estimatePromptTokens, RateLimitService, type TokenReservation } from '@rosetta/limits';
import { UsageRecorderService, type UsageDraft } from '@rosetta/usage';
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
  ) {}

  /** Records the request's ledger row; called once, when its response has closed. */
  recordUsage(draft: UsageDraft, status: number): void {
    this.recorder.record(draft, status);
  }

  async complete(request: CanonicalRequest, ctx: CallContext): Promise<CompletionOutcome> {
    const promptTokens = estimatePromptTokens(request);
    const plan = this.routing.plan(request, promptTokens);
    note(ctx, { requestedModel: request.model, streamed: false, route: plan.route });
    const reservation = await this.reserve(request, ctx, promptTokens);
    try {
      const outcome = await this.executor.complete(plan, request, ctx);
      note(ctx, { servedModel: outcome.meta.model, provider: outcome.meta.provider, pricing: outcome.meta.pricing, usage: outcome.response.usage });
      await reservation?.settle(outcome.response.usage ? totalTokens(outcome.response.usage) : promptTokens);
      return outcome;
    } catch (error) {
      await reservation?.settle(0);
      throw error;
    }
  }

  async stream(request: CanonicalRequest, ctx: CallContext): Promise<StreamOutcome> {
    const promptTokens = estimatePromptTokens(request);
    const plan = this.routing.plan(request, promptTokens);
    note(ctx, { requestedModel: request.model, streamed: true, route: plan.route });
    const reservation = await this.reserve(request, ctx, promptTokens);
    try {
      const outcome = await this.executor.stream(plan, request, ctx);
      note(ctx, { servedModel: outcome.meta.model, provider: outcome.meta.provider, pricing: outcome.meta.pricing });
      return { ...outcome, events: settleWhenDone(outcome.events, reservation, promptTokens, ctx.usage) };
    } catch (error) {
      await reservation?.settle(0);
      throw error;
    }
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
    await reservation?.settle(usage ?? estimated);
  }
}

function note(ctx: CallContext, fields: Partial<UsageDraft>): void {
  if (!ctx.usage) return;
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) (ctx.usage as unknown as Record<string, unknown>)[name] = value;
}
