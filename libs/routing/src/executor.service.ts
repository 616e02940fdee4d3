import { Inject, Injectable } from '@nestjs/common';
import { GatewayError, type CanonicalRequest, type EmbeddingRequest, type RoutingPreferences, type TranslationWarning } from '@rosetta/canonical';
import { ROSETTA_CONFIG, type RosettaConfig } from '@rosetta/platform';
import { PROVIDER_ADAPTERS, upstreamTimeout, type ProviderAdapter, type UpstreamLeg, type UpstreamTarget } from '@rosetta/providers';
import { ENDPOINT_HEALTH, type EndpointHealthPort } from '@rosetta/registry';
import type { Attempt, RoutePlan } from './attempt';
import { AttemptHealth } from './attempt-health';
import { attemptSignal, type AttemptSignal } from './attempt-signal';
import { ClientAbortedError, toGatewayError } from './gateway-errors';
import type { CallContext, CompletionOutcome, EmbeddingOutcome, ServedMeta, StreamOutcome } from './outcome';
import { applyProviderOverrides } from './provider-overrides';
import { isEndpointFailure, isTimeout, retryDelay, sleep } from './retry-policy';
import { holdUntilFirstEvent, relayStream } from './stream-relay';

export { ClientAbortedError, toGatewayError } from './gateway-errors';

/**
 * Tries the plan's attempts in order. A retryable failure (5xx, 429, time-out, refused
 * connection) is retried on the same endpoint with backoff, then falls back to the next
 * endpoint or model; so does a stream that fails before its first real event, because nothing
 * has reached the client yet. A time-out moves straight on when another candidate waits, and a
 * streamed attempt with one behind it gives a silent upstream only `fallbackFirstByteMs`.
 * Every upstream outcome feeds the endpoint's health and circuit breaker; failures of the
 * gateway's own (`GatewayError.local`) never do.
 */
@Injectable()
export class ExecutorService {
  constructor(
    @Inject(PROVIDER_ADAPTERS) private readonly adapters: ReadonlyMap<string, ProviderAdapter>,
    @Inject(ENDPOINT_HEALTH) private readonly health: EndpointHealthPort,
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
  ) {}

  complete(plan: RoutePlan, request: CanonicalRequest, ctx: CallContext): Promise<CompletionOutcome> {
    return this.run(plan, request, ctx, async (attempt, leg, count, lifetime, health) => {
      const started = Date.now();
      const { response, warnings } = await this.adapter(attempt).complete({ ...leg, request });
      ctx.trace?.answered(response);
      lifetime.release();
      health.report({ ok: true, failure: false, latencyMs: Date.now() - started, outputTokens: response.usage?.outputTokens, generationMs: Date.now() - started });
      return { response: { ...response, model: attempt.model }, meta: this.meta(plan, attempt, count, warnings) };
    });
  }

  /** Embeddings: the same attempts, retries, fallbacks, breakers and time-outs as a chat completion. */
  embed(plan: RoutePlan, request: EmbeddingRequest, ctx: CallContext): Promise<EmbeddingOutcome> {
    return this.run(plan, { routing: request.routing, stream: false }, ctx, async (attempt, leg, count, lifetime, health) => {
      const started = Date.now();
      const adapter = this.adapter(attempt);
      if (!adapter.embed) throw new GatewayError('api_error', `No embeddings for protocol '${attempt.target.protocol}'`, { local: true });
      const { response, warnings } = await adapter.embed({ ...leg, request });
      ctx.trace?.answered({ model: response.model, usage: response.usage });
      lifetime.release();
      health.report({ ok: true, failure: false, latencyMs: Date.now() - started });
      return { response: { ...response, model: attempt.model }, meta: this.meta(plan, attempt, count, warnings) };
    }, 'embeddings');
  }

  /** `passThrough`: the client can take a same-protocol upstream's own frames (docs/decisions/0017). */
  stream(plan: RoutePlan, request: CanonicalRequest, ctx: CallContext, passThrough = false): Promise<StreamOutcome> {
    return this.run(plan, request, ctx, async (attempt, leg, count, lifetime, health) => {
      const startedAt = Date.now();
      const call = { ...leg, request, passThrough };
      const { events, warnings, passThrough: forwarded } = await this.adapter(attempt).stream(call);
      const iterator = events[Symbol.asyncIterator]();
      const held = await holdUntilFirstEvent(iterator);
      // From here the stream owns the endpoint's verdict: one report when it ends, or a release.
      const streamHealth = health.handOff();
      const relayed = relayStream(held, iterator, {
        model: attempt.model,
        signal: call.signal,
        clientSignal: ctx.signal,
        startedAt,
        firstEventAt: Date.now(),
        // The attempt lives as long as its stream: released when the relay ends.
        release: () => {
          lifetime.release();
          streamHealth.release();
        },
        report: (r) => streamHealth.report({ ...r, latencyMs: Date.now() - startedAt }),
      });
      const meta = this.meta(plan, attempt, count, warnings);
      return { events: relayed, meta: forwarded ? { ...meta, passThrough: true } : meta };
    });
  }

  /**
   * The attempt loop. Whatever ends an attempt — success, failure, a bad override, the client
   * leaving during a back-off — the health slot it acquired (the half-open probe) is either given
   * a verdict or released: `slot` tracks what this request holds. Calls with the caller's own key
   * or host (provider_configs) neither take a slot nor report: a tenant's key or server must not
   * open the circuit of the operator's endpoint for everyone. `job` is what the loop needs of the
   * request whatever it asks (chat or embeddings): its routing preferences and whether it streams.
   */
  private async run<T>(
    plan: RoutePlan,
    job: { routing: RoutingPreferences; stream: boolean },
    ctx: CallContext,
    once: (attempt: Attempt, leg: UpstreamLeg, count: number, lifetime: AttemptSignal, health: AttemptHealth) => Promise<T>,
    operation = 'chat',
  ): Promise<T> {
    let lastError: GatewayError | undefined;
    let count = 0;
    // Every attempt of the request, retries and fallbacks included, ends by the operator's total
    // time-out from the request's start: its budget hold outlives that by a margin, never the request.
    const deadline = (ctx.usage?.startedAt ?? Date.now()) + this.config.timeouts.totalMs;
    for (let index = 0; index < plan.attempts.length; index++) {
      const attempt = plan.attempts[index]!;
      const hasNext = index < plan.attempts.length - 1;
      const target = this.watchdog(await applyProviderOverrides(attempt.target, attempt.model, job.routing, this.config.upstreamAllowHosts), job.stream, hasNext);
      const health = new AttemptHealth(this.health, attempt.key, sameCredentials(attempt.target, target));
      if (!health.acquire()) continue;
      try {
        for (let retry = 0; ; retry++) {
          if (ctx.signal.aborted) throw new ClientAbortedError();
          const remainingMs = deadline - Date.now();
          if (remainingMs <= 0) throw lastError ?? upstreamTimeout('the answer');
          count++;
          ctx.usage?.attempted(count, target.provider, attempt.model, attempt.pricing);
          const lifetime = attemptSignal(ctx.signal, Math.min(target.timeouts.totalMs, remainingMs));
          const { signal } = lifetime;
          const started = Date.now();
          const span = ctx.trace?.attempt(attempt.model, target, count, operation);
          try {
            return await once({ ...attempt, target }, { target, signal, requestId: ctx.requestId, traceHeaders: span?.headers }, count, lifetime, health);
          } catch (error) {
            // Translate while the attempt's signal still says why it ended (a time-out), then end it.
            const failure = ctx.signal.aborted ? undefined : toGatewayError(error, signal);
            span?.failed(failure);
            lifetime.abort();
            if (!failure) throw new ClientAbortedError();
            lastError = failure;
            if (lastError.local) throw lastError;
            health.report({ ok: false, failure: isEndpointFailure(lastError), latencyMs: Date.now() - started });
            if (!lastError.retryable) throw lastError;
            const delay = hasNext && isTimeout(lastError) ? undefined : retryDelay(lastError, retry);
            if (delay === undefined || !health.acquire()) break;
            await sleep(delay, ctx.signal);
          }
        }
      } finally {
        health.release();
      }
    }
    throw lastError ?? new GatewayError('overloaded_error', 'Every endpoint for this request is unavailable right now', { status: 503 });
  }

  /** A streamed attempt with another candidate behind it gives up on a silent upstream sooner. */
  private watchdog(target: UpstreamTarget, stream: boolean, hasNext: boolean): UpstreamTarget {
    const { fallbackFirstByteMs, firstByteMs } = target.timeouts;
    if (!stream || !hasNext || !fallbackFirstByteMs || fallbackFirstByteMs >= firstByteMs) return target;
    return { ...target, timeouts: { ...target.timeouts, firstByteMs: fallbackFirstByteMs } };
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

/** Whether an attempt still goes where the operator configured, with the operator's key. */
function sameCredentials(configured: UpstreamTarget, actual: UpstreamTarget): boolean {
  return configured.apiKey === actual.apiKey && configured.baseUrl === actual.baseUrl;
}
