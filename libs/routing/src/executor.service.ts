import { Inject, Injectable } from '@nestjs/common';
import { GatewayError, type CanonicalRequest, type TranslationWarning } from '@rosetta/canonical';
import { ROSETTA_CONFIG, type RosettaConfig } from '@rosetta/platform';
import { PROVIDER_ADAPTERS, type ProviderAdapter, type UpstreamCall } from '@rosetta/providers';
import { ENDPOINT_HEALTH, type EndpointHealthPort } from '@rosetta/registry';
import type { Attempt, RoutePlan } from './attempt';
import { attemptSignal, type AttemptSignal } from './attempt-signal';
import { ClientAbortedError, toGatewayError } from './gateway-errors';
import type { CallContext, CompletionOutcome, ServedMeta, StreamOutcome } from './outcome';
import { applyProviderOverrides } from './provider-overrides';
import { isEndpointFailure, retryDelay, sleep } from './retry-policy';
import { holdUntilFirstEvent, relayStream } from './stream-relay';

export { ClientAbortedError, toGatewayError } from './gateway-errors';

/**
 * Tries the plan's attempts in order. A retryable failure (5xx, 429, time-out, refused
 * connection) is retried on the same endpoint with backoff, then falls back to the next
 * endpoint or model; so does a stream that fails before its first real event, because nothing
 * has reached the client yet. Every outcome feeds the endpoint's health and circuit breaker.
 */
@Injectable()
export class ExecutorService {
  constructor(
    @Inject(PROVIDER_ADAPTERS) private readonly adapters: ReadonlyMap<string, ProviderAdapter>,
    @Inject(ENDPOINT_HEALTH) private readonly health: EndpointHealthPort,
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
  ) {}

  complete(plan: RoutePlan, request: CanonicalRequest, ctx: CallContext): Promise<CompletionOutcome> {
    return this.run(plan, request, ctx, async (attempt, call, count, lifetime) => {
      const started = Date.now();
      const { response, warnings } = await this.adapter(attempt).complete(call);
      lifetime.release();
      this.health.report(attempt.key, { ok: true, failure: false, latencyMs: Date.now() - started, outputTokens: response.usage?.outputTokens, generationMs: Date.now() - started });
      return { response: { ...response, model: attempt.model }, meta: this.meta(plan, attempt, count, warnings) };
    });
  }

  stream(plan: RoutePlan, request: CanonicalRequest, ctx: CallContext): Promise<StreamOutcome> {
    return this.run(plan, request, ctx, async (attempt, call, count, lifetime) => {
      const startedAt = Date.now();
      const { events, warnings } = await this.adapter(attempt).stream(call);
      const iterator = events[Symbol.asyncIterator]();
      const held = await holdUntilFirstEvent(iterator);
      const relayed = relayStream(held, iterator, {
        model: attempt.model,
        signal: call.signal,
        clientSignal: ctx.signal,
        startedAt,
        firstEventAt: Date.now(),
        // The attempt lives as long as its stream: released when the relay ends.
        release: lifetime.release,
        report: (r) => this.health.report(attempt.key, { ...r, latencyMs: Date.now() - startedAt }),
      });
      return { events: relayed, meta: this.meta(plan, attempt, count, warnings) };
    });
  }

  private async run<T>(
    plan: RoutePlan,
    request: CanonicalRequest,
    ctx: CallContext,
    once: (attempt: Attempt, call: UpstreamCall, count: number, lifetime: AttemptSignal) => Promise<T>,
  ): Promise<T> {
    let lastError: GatewayError | undefined;
    let count = 0;
    for (const attempt of plan.attempts) {
      if (!this.health.acquire(attempt.key)) continue;
      const target = await applyProviderOverrides(attempt.target, attempt.model, request.routing, this.config.upstreamAllowHosts);
      for (let retry = 0; ; retry++) {
        if (ctx.signal.aborted) throw new ClientAbortedError();
        count++;
        if (ctx.usage) {
          ctx.usage.attempts = count;
          ctx.usage.provider = target.provider;
        }
        const lifetime = attemptSignal(ctx.signal, target.timeouts.totalMs);
        const { signal } = lifetime;
        const started = Date.now();
        try {
          return await once({ ...attempt, target }, { request, target, signal, requestId: ctx.requestId }, count, lifetime);
        } catch (error) {
          if (ctx.signal.aborted) {
            lifetime.abort();
            this.health.release(attempt.key);
            throw new ClientAbortedError();
          }
          lastError = toGatewayError(error, signal);
          lifetime.abort();
          this.health.report(attempt.key, { ok: false, failure: isEndpointFailure(lastError), latencyMs: Date.now() - started });
          if (!lastError.retryable) throw lastError;
          const delay = retryDelay(lastError, retry);
          if (delay === undefined || !this.health.acquire(attempt.key)) break;
          await sleep(delay, ctx.signal);
        }
      }
    }
    throw lastError ?? new GatewayError('overloaded_error', 'Every endpoint for this request is unavailable right now', { status: 503 });
  }

  private adapter(attempt: Attempt): ProviderAdapter {
    const adapter = this.adapters.get(attempt.target.protocol);
    if (!adapter) throw new GatewayError('api_error', `No adapter for protocol '${attempt.target.protocol}'`);
    return adapter;
  }

  private meta(plan: RoutePlan, attempt: Attempt, count: number, warnings: TranslationWarning[]): ServedMeta {
    return { model: attempt.model, provider: attempt.target.provider, protocol: attempt.target.protocol, pricing: attempt.pricing, attempts: count, route: plan.route, warnings };
  }
}
