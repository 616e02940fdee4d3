import { Injectable } from '@nestjs/common';
import { totalTokens, type CanonicalRequest, type StreamEvent } from '@rosetta/canonical';
import { estimatePromptTokens, RateLimitService, type TokenReservation } from '@rosetta/limits';
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
  ) {}

  async complete(request: CanonicalRequest, ctx: CallContext): Promise<CompletionOutcome> {
    const promptTokens = estimatePromptTokens(request);
    const plan = this.routing.plan(request, promptTokens);
    const reservation = await this.reserve(request, ctx, promptTokens);
    try {
      const outcome = await this.executor.complete(plan, request, ctx);
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
    const reservation = await this.reserve(request, ctx, promptTokens);
    try {
      const outcome = await this.executor.stream(plan, request, ctx);
      return { ...outcome, events: settleWhenDone(outcome.events, reservation, promptTokens) };
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
async function* settleWhenDone(events: AsyncIterable<StreamEvent>, reservation: TokenReservation | undefined, promptTokens: number): AsyncGenerator<StreamEvent> {
  let usage: number | undefined;
  let outputChars = 0;
  try {
    for await (const event of events) {
      if (event.type === 'text-delta' || event.type === 'thinking-delta') outputChars += event.text.length;
      if (event.type === 'tool-call-delta') outputChars += event.argumentsDelta.length;
      if (event.type === 'usage') usage = totalTokens(event.usage);
      if (event.type === 'finish' && event.usage) usage = totalTokens(event.usage);
      yield event;
    }
  } finally {
    await reservation?.settle(usage ?? promptTokens + Math.ceil(outputChars / 4));
  }
}
