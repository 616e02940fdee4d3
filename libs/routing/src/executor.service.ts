import { Inject, Injectable } from '@nestjs/common';
import { GatewayError, type CanonicalRequest, type StreamEvent } from '@rosetta/canonical';
import { PROVIDER_ADAPTERS, translateTransportError, type ProviderAdapter, type UpstreamCall } from '@rosetta/providers';
import type { Attempt, RoutePlan } from './attempt';
import type { CallContext, CompletionOutcome, ServedMeta, StreamOutcome } from './outcome';

/** Thrown (and swallowed by controllers) when the client went away: there is no one to answer. */
export class ClientAbortedError extends Error {
  constructor() {
    super('client disconnected');
    this.name = 'ClientAbortedError';
  }
}

/**
 * Tries the plan's attempts in order. A retryable failure (5xx, 429, time-out, refused
 * connection) moves on to the next attempt; so does a stream that fails before its first real
 * event, because nothing has been sent to the client yet.
 */
@Injectable()
export class ExecutorService {
  constructor(@Inject(PROVIDER_ADAPTERS) private readonly adapters: ReadonlyMap<string, ProviderAdapter>) {}

  async complete(plan: RoutePlan, request: CanonicalRequest, ctx: CallContext): Promise<CompletionOutcome> {
    return this.run(plan, ctx, async (attempt, call, index) => {
      const { response, warnings } = await this.adapter(attempt).complete(call);
      return { response: { ...response, model: attempt.model }, meta: this.meta(plan, attempt, index, warnings) };
    }, request);
  }

  async stream(plan: RoutePlan, request: CanonicalRequest, ctx: CallContext): Promise<StreamOutcome> {
    return this.run(plan, ctx, async (attempt, call, index) => {
      const { events, warnings } = await this.adapter(attempt).stream(call);
      const iterator = events[Symbol.asyncIterator]();
      const held = await holdUntilFirstEvent(iterator);
      return {
        events: continueStream(held, iterator, attempt.model, call.signal, ctx.signal),
        meta: this.meta(plan, attempt, index, warnings),
      };
    }, request);
  }

  private async run<T>(
    plan: RoutePlan,
    ctx: CallContext,
    once: (attempt: Attempt, call: UpstreamCall, index: number) => Promise<T>,
    request: CanonicalRequest,
  ): Promise<T> {
    let lastError: GatewayError | undefined;
    for (const [index, attempt] of plan.attempts.entries()) {
      if (ctx.signal.aborted) throw new ClientAbortedError();
      const controller = new AbortController();
      const signal = AbortSignal.any([ctx.signal, controller.signal, AbortSignal.timeout(attempt.target.timeouts.totalMs)]);
      try {
        return await once(attempt, { request, target: attempt.target, signal, requestId: ctx.requestId }, index);
      } catch (error) {
        controller.abort();
        if (ctx.signal.aborted) throw new ClientAbortedError();
        lastError = toGatewayError(error, signal);
        if (!lastError.retryable) throw lastError;
      }
    }
    throw lastError ?? new GatewayError('api_error', 'No attempt was made');
  }

  private adapter(attempt: Attempt): ProviderAdapter {
    const adapter = this.adapters.get(attempt.target.protocol);
    if (!adapter) throw new GatewayError('api_error', `No adapter for protocol '${attempt.target.protocol}'`);
    return adapter;
  }

  private meta(plan: RoutePlan, attempt: Attempt, index: number, warnings: ServedMeta['warnings']): ServedMeta {
    return { model: attempt.model, provider: attempt.target.provider, protocol: attempt.target.protocol, attempts: index + 1, route: plan.route, warnings };
  }
}

export function toGatewayError(error: unknown, signal?: AbortSignal): GatewayError {
  const translated = translateTransportError(error, signal);
  if (translated instanceof GatewayError) return translated;
  return new GatewayError('api_error', 'Internal error while calling the upstream');
}

/** Reads up to the first event that carries content or an outcome; an error there is thrown. */
async function holdUntilFirstEvent(iterator: AsyncIterator<StreamEvent>): Promise<StreamEvent[]> {
  const held: StreamEvent[] = [];
  for (;;) {
    const next = await iterator.next();
    if (next.done) return held;
    if (next.value.type === 'error') throw next.value.error;
    held.push(next.value);
    if (next.value.type !== 'start' && next.value.type !== 'usage') return held;
  }
}

async function* continueStream(
  held: StreamEvent[],
  iterator: AsyncIterator<StreamEvent>,
  model: string,
  signal: AbortSignal,
  clientSignal: AbortSignal,
): AsyncGenerator<StreamEvent> {
  const rewrite = (event: StreamEvent): StreamEvent => (event.type === 'start' ? { ...event, model } : event);
  try {
    for (const event of held) yield rewrite(event);
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield rewrite(next.value);
    }
  } catch (error) {
    if (clientSignal.aborted) return;
    yield { type: 'error', error: toGatewayError(error, signal) };
  } finally {
    await iterator.return?.();
  }
}
