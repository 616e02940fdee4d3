import { Inject, Injectable, Optional } from '@nestjs/common';
import type { ApiKeyRecord } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { APP_LOGGER, ConfigError, MetricsService, REDIS_CLIENT, type AppLogger, type Counter, type RedisClient } from '@rosetta/platform';
import { PlanCacheService } from '../plan-cache.service';
import { FailoverRateLimitStore, type FailoverMetrics, type RedisFailurePolicy } from './failover-rate-limit-store';
import { MemoryRateLimitStore } from './memory-rate-limit-store';
import { LIMIT_WINDOW_MS, resolveLimits, type ResolvedLimits } from './plan-limits';
import { rateLimitHeaders, type LimitState } from './rate-limit-headers';
import { RedisJointStore } from '../admission/redis-joint-store';
import { toUnits, type RateLimitStore, type ReserveResult, type WindowResult } from './rate-limit-store';
import { tokenRefusal, type TokenNeed } from './token-refusal';
import { admissionTag } from '../admission-slot';
import { RATE_LIMIT_KEY_PREFIX, RedisRateLimitStore } from './redis-rate-limit-store';

export const RATE_LIMIT_OPTIONS = Symbol('RATE_LIMIT_OPTIONS');

export interface RateLimitOptions {
  /** The Redis failure policy (see FailoverRateLimitStore). Default `local`. */
  onRedisFailure?: RedisFailurePolicy;
  /** Upper bound on one Redis call before the policy applies. Default 1,500 ms. */
  redisTimeoutMs?: number;
  /** While Redis is down, how often to try it again. Default 1,000 ms. */
  probeIntervalMs?: number;
  /** Redis key prefix. Default `rosetta:rl:`. */
  keyPrefix?: string;
  /** The limit window. Default one minute (RPM/TPM); tests may shorten it. */
  windowMs?: number;
  /** Most output tokens a request reserves before its call (`TPM_OUTPUT_RESERVATION`). Default 4,096. */
  outputReservation?: number;
}

/** Output tokens reserved at most per request unless TPM_OUTPUT_RESERVATION says otherwise. */
export const DEFAULT_OUTPUT_RESERVATION = 4_096;

/** `RATE_LIMIT_REDIS_FAILURE=local|open` (default `local`). A bad value stops the process. */
export function rateLimitOptionsFromEnv(env: Record<string, string | undefined> = process.env): RateLimitOptions {
  const raw = env.RATE_LIMIT_REDIS_FAILURE?.trim().toLowerCase();
  const reservation = env.TPM_OUTPUT_RESERVATION?.trim();
  if (reservation && !/^\d+$/.test(reservation)) throw new ConfigError('TPM_OUTPUT_RESERVATION', `must be a whole number of tokens, got '${reservation}'`);
  const outputReservation = reservation ? Number(reservation) : DEFAULT_OUTPUT_RESERVATION;
  if (raw === undefined || raw === '') return { onRedisFailure: 'local', outputReservation };
  if (raw !== 'local' && raw !== 'open') throw new ConfigError('RATE_LIMIT_REDIS_FAILURE', `must be 'local' or 'open', got '${raw}'`);
  return { onRedisFailure: raw, outputReservation };
}

/** A request's tokens: its estimated prompt, its output cap, and the most its endpoints can produce. */
export interface TokenRequest {
  prompt: number;
  maxOutput?: number;
  endpointMaxOutput?: number;
}

/** See RateLimitService.sharedRedis. */
export interface SharedRedis {
  windows: RedisRateLimitStore;
  joint: RedisJointStore;
  /** Runs a call against Redis within the failure policy's time-out; a failure is counted and rethrown. */
  run<T>(call: () => Promise<T>): Promise<T>;
}

/** A token reservation made before an upstream call. */
export interface TokenReservation {
  /** Tokens reserved (0 when the key has no token limit). */
  readonly reserved: number;
  /** The token window after the reservation (and the request window when passed in). */
  readonly state: LimitState;
  /**
   * Replaces the reservation by the actual usage, returning unused tokens to the budget. Call it
   * when the response ends, fails or the stream is cut. Idempotent: only the first call counts.
   * Never throws.
   */
  settle(actualTokens: number): Promise<void>;
}

/**
 * Per-key requests and tokens per minute, exact across every replica sharing Redis (see
 * RedisRateLimitStore), in process without Redis, and degraded per the Redis failure policy when
 * Redis stops answering.
 */
@Injectable()
export class RateLimitService {
  readonly store: RateLimitStore;
  readonly windowMs: number;
  readonly outputReservation: number;
  private readonly failover?: FailoverRateLimitStore;
  private readonly shared?: SharedRedis;
  private readonly refused?: Counter;

  constructor(
    @Inject(REDIS_CLIENT) redis: RedisClient | null,
    private readonly plans: PlanCacheService,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    @Optional() @Inject(RATE_LIMIT_OPTIONS) options?: RateLimitOptions,
    @Optional() metrics?: MetricsService,
  ) {
    if (metrics) {
      this.refused = metrics.counter('rosetta_rate_limited_total', 'Requests refused with 429, by the limit that refused them (requests or tokens).', ['limit']);
      metrics.gauge('rosetta_rate_limit_redis_failures', 'Limiter calls to Redis that failed or timed out since start.', () => [{ value: this.metrics().failures }]);
      metrics.gauge('rosetta_rate_limit_degraded', '1 while Redis is unreachable and limits follow RATE_LIMIT_REDIS_FAILURE.', () => [{ value: this.metrics().degraded ? 1 : 0 }], [], 'max');
    }
    const settings = { ...rateLimitOptionsFromEnv(), ...(options ?? {}) };
    this.windowMs = settings.windowMs ?? LIMIT_WINDOW_MS;
    this.outputReservation = settings.outputReservation ?? DEFAULT_OUTPUT_RESERVATION;
    if (redis) {
      const primary = new RedisRateLimitStore(redis, { prefix: settings.keyPrefix ?? RATE_LIMIT_KEY_PREFIX });
      this.shared = { windows: primary, joint: new RedisJointStore(redis), run: (call) => this.failover!.attempt(call) };
      this.failover = new FailoverRateLimitStore(primary, {
        logger,
        policy: settings.onRedisFailure ?? 'local',
        timeoutMs: settings.redisTimeoutMs,
        probeIntervalMs: settings.probeIntervalMs,
        isUnavailable: () => primary.isUnavailable(),
      });
      this.store = this.failover;
    } else {
      this.store = new MemoryRateLimitStore();
    }
  }

  /** The key's limits: per-key values over its plan's (see resolveLimits). */
  limitsFor(key: ApiKeyRecord): ResolvedLimits {
    return resolveLimits(key, this.plans.get(key.plan));
  }

  /** Redis failures so far and whether the limiter is degraded (zeros without Redis). */
  metrics(): FailoverMetrics {
    return this.failover?.metrics() ?? { failures: 0, fallbackCalls: 0, outages: 0, degraded: false };
  }

  /**
   * Counts one request against the key's RPM and reads its token window for the headers (two
   * scripts sent together). Throws the 429 GatewayError when the request limit is reached.
   */
  async checkRequest(key: ApiKeyRecord, now: number = Date.now()): Promise<LimitState> {
    return this.admitRequest(await this.countRequest(key, now));
  }

  /** checkRequest without the refusal: the state, whether or not the request limit let it in. */
  async countRequest(key: ApiKeyRecord, now: number = Date.now()): Promise<LimitState> {
    const limits = this.limitsFor(key);
    const [requests, tokens] = await Promise.all([
      limits.rpm === null ? null : this.store.hit(requestKey(key), limits.rpm, this.windowMs, now),
      this.peekTokens(key, now, limits),
    ]);
    return { plan: key.plan, requests, tokens };
  }

  /** The key's token window without reserving anything; `null` when unlimited. */
  async peekTokens(key: ApiKeyRecord, now: number = Date.now(), limits: ResolvedLimits = this.limitsFor(key)): Promise<WindowResult | null> {
    return limits.tpm === null ? null : this.store.peek(tokenKey(key), limits.tpm, this.windowMs, now);
  }

  /** The state of a request just counted; throws the 429 when the request limit refused it. */
  admitRequest(state: LimitState): LimitState {
    const requests = state.requests;
    if (requests && !requests.allowed) {
      this.refused?.inc(['requests']);
      throw new GatewayError('rate_limit_error', `Rate limit exceeded: ${requests.limit} requests per minute for plan ${state.plan}`, {
        code: 'rate_limit_exceeded',
        retryAfterMs: Math.max(1, requests.resetMs),
        headers: this.headers(state),
      });
    }
    return state;
  }

  /**
   * A request's reservation, by the policy the README documents: the estimated prompt plus its
   * output cap — clamped to the most any planned endpoint can produce, and to
   * `outputReservation` — and nothing for output when the request set no cap. Settlement charges
   * the real output when the response ends, so a minute can overshoot the limit only by the output
   * of requests in flight beyond what they reserved; in exchange tiny requests are bound by RPM,
   * and coding agents sending `max_tokens: 32000` are not charged 32,000 tokens per call up front.
   * Never more than the whole minute unless the prompt alone is more (then it is refused).
   */
  reserveRequest(key: ApiKeyRecord, request: TokenRequest, previous?: LimitState): Promise<TokenReservation> {
    const { units, need } = this.tokenNeed(key, request);
    return this.reserveTokens(key, units, undefined, previous, need);
  }

  /**
   * Reserves `tokens` against the key's TPM before the upstream call. Throws the 429 GatewayError
   * when they do not fit, saying how much the request needed, how much of the minute remains and
   * what to change; a request needing more than the whole per-minute budget is refused outright (no
   * retry hint, `x-should-retry: false`). `need` splits the amount into prompt and reserved output
   * for those messages. Pass the request's state to carry its request headers into the result and
   * the error.
   */
  async reserveTokens(key: ApiKeyRecord, tokens: number, now: number = Date.now(), previous?: LimitState, need?: TokenNeed): Promise<TokenReservation> {
    const { tpm } = this.limitsFor(key);
    const units = toUnits(tokens);
    if (tpm === null) return noTokens({ plan: key.plan, requests: previous?.requests, tokens: null });
    const result = await this.store.reserve(tokenKey(key), units, tpm, this.windowMs, now);
    // Settle on the same clock the reservation used (tests inject `now`), advanced by real time.
    const madeAt = Date.now();
    return this.tokenReservation(key, tpm, units, result, previous, need, (actual) =>
      this.store.settle(tokenKey(key), result.reservationId!, actual, this.windowMs, now + (Date.now() - madeAt)),
    );
  }

  /**
   * What reserveRequest reserves for a request (see its policy): the units, the key's TPM (`null`:
   * unlimited) and the split into prompt and output for the refusal messages.
   */
  tokenNeed(key: ApiKeyRecord, request: TokenRequest): { units: number; tpm: number | null; need: TokenNeed } {
    const cap = request.maxOutput === undefined ? 0 : Math.min(request.maxOutput, request.endpointMaxOutput ?? request.maxOutput);
    const wanted = request.prompt + Math.min(cap, this.outputReservation);
    const { tpm } = this.limitsFor(key);
    const amount = tpm === null ? wanted : Math.min(wanted, Math.max(request.prompt, tpm));
    return { units: toUnits(amount), tpm, need: { prompt: request.prompt, output: Math.max(0, amount - request.prompt) } };
  }

  /**
   * The reservation a store's answer makes, or the token 429 when it refused. `send` carries the
   * actual units to the store, once (later calls are ignored; failures are logged, never thrown).
   */
  tokenReservation(
    key: ApiKeyRecord,
    tpm: number,
    units: number,
    result: ReserveResult,
    previous: LimitState | undefined,
    need: TokenNeed | undefined,
    send: (actualUnits: number) => Promise<void>,
  ): TokenReservation {
    const { reservationId, retryAfterMs: retry, ...window } = result;
    const state: LimitState = { plan: key.plan, requests: previous?.requests, tokens: window };
    if (!result.allowed || reservationId === undefined) {
      this.refused?.inc(['tokens']);
      throw tokenRefusal(key.plan, tpm, units, window, retry, need, this.headers(state));
    }
    let settled = false;
    return {
      reserved: units,
      state,
      settle: async (actualTokens: number) => {
        if (settled) return;
        settled = true;
        try {
          await send(toUnits(actualTokens));
        } catch (error) {
          this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'rate limits: token settlement failed');
        }
      },
    };
  }

  /**
   * The shared Redis while it answers: its window store and the admission scripts, and a
   * runner that applies the failure policy's time-out and accounting. `undefined` without Redis
   * or while it is degraded (the separate paths and their policies apply then).
   */
  sharedRedis(): SharedRedis | undefined {
    return this.shared && this.failover?.healthy() ? this.shared : undefined;
  }

  /** The six `x-ratelimit-*` headers for a state; unlimited or unread dimensions are omitted. */
  headers(state: LimitState): Record<string, string> {
    return rateLimitHeaders(state);
  }
}

/** The reservation of a key without a token limit: nothing reserved, nothing to settle. */
export function noTokens(state: LimitState): TokenReservation {
  return { reserved: 0, state, settle: async () => undefined };
}

/** Store keys: one window per API key and dimension, shared by every replica, under the key's admission tag. */
export function requestKey(key: WindowOwner): string {
  return `${admissionTag(key)}:rpm:${key.id}`;
}

export function tokenKey(key: WindowOwner): string {
  return `${admissionTag(key)}:tpm:${key.id}`;
}

type WindowOwner = Pick<ApiKeyRecord, 'id' | 'teamId'>;
