import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { IS_PUBLIC, type ApiKeyRecord } from '@rosetta/auth';
import type { LimitState } from './rate-limit-headers';
import type { RateLimitStore, WindowResult } from './rate-limit-store';
import { RateLimitService, requestKey } from './rate-limit.service';

/** The throttler's name; its storage keys are `rpm:<api key id>`, shared with RateLimitService. */
export const REQUESTS_THROTTLER = 'rpm';

/** Paths the limiter never counts: the admin API and the probes. */
const EXEMPT_PATH = /^\/(?:admin(?:\/|$)|healthz(?:\/|$)|readyz(?:\/|$))/;

/** What the guard leaves on the request for later stages (token headers, usage). */
export interface RateLimitedRequest {
  apiKey?: ApiKeyRecord;
  rateLimit?: LimitState;
  url?: string;
  originalUrl?: string;
}

/** What a ThrottlerStorage answers (the package does not export the type by name). */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** The throttler record, plus the exact window the store answered with. */
export interface PlanThrottlerStorageRecord extends ThrottlerStorageRecord {
  window: WindowResult;
}

/**
 * `@nestjs/throttler` storage over a RateLimitStore: the same atomic sliding window, in Redis
 * (every replica) or in process. A refused hit is not recorded. Times are in seconds, as the
 * throttler expects; the exact window rides along in `window`.
 */
export class RateLimitThrottlerStorage implements ThrottlerStorage {
  constructor(
    private readonly store: RateLimitStore,
    private readonly clock: () => number = Date.now,
  ) {}

  async increment(key: string, ttl: number, limit: number): Promise<PlanThrottlerStorageRecord> {
    const window = await this.store.hit(key, limit, ttl, this.clock());
    const seconds = (ms: number) => Math.max(0, Math.ceil(ms / 1000));
    return {
      totalHits: window.allowed ? window.used : window.used + 1,
      timeToExpire: seconds(window.windowResetMs ?? window.resetMs),
      isBlocked: !window.allowed,
      timeToBlockExpire: window.allowed ? 0 : Math.max(1, seconds(window.resetMs)),
      window,
    };
  }
}

/** The requests-per-minute limit of the authenticated key; Infinity when unlimited. */
export function planRequestLimit(limits: RateLimitService, context: ExecutionContext): number {
  const key = context.switchToHttp().getRequest<RateLimitedRequest>().apiKey;
  if (!key) return Number.POSITIVE_INFINITY;
  return limits.limitsFor(key).rpm ?? Number.POSITIVE_INFINITY;
}

/**
 * Requests per minute through `@nestjs/throttler`, per API key and resolved per request from the
 * key's plan. Runs after ApiKeyGuard (which sets `req.apiKey`). Skips public routes, `/admin`,
 * `/healthz`, `/readyz` and unauthenticated requests. On success it sets the request and token
 * `x-ratelimit-*` headers on the response and leaves the state on `req.rateLimit`; on refusal it
 * throws the 429 `rate_limit_error` GatewayError (the exception filter adds `retry-after` and
 * `retry-after-ms`).
 */
@Injectable()
export class PlanThrottlerGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly limits: RateLimitService,
  ) {
    super(options, storage, reflector);
  }

  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<RateLimitedRequest>();
    if (!req.apiKey) return true;
    const path = (req.originalUrl ?? req.url ?? '').split('?')[0] ?? '';
    return EXEMPT_PATH.test(path);
  }

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    return (req as RateLimitedRequest).apiKey?.id ?? '';
  }

  /** One window per key across all routes (the stock key is per route and hashed). */
  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return requestKey(tracker);
  }

  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, blockDuration, throttler } = props;
    const { req, res } = this.getRequestResponse(context);
    const request = req as RateLimitedRequest;
    const key = request.apiKey;
    if (!key) return true;
    const name = throttler.name ?? REQUESTS_THROTTLER;
    const countRequest = async (): Promise<WindowResult | null> => {
      if (!Number.isFinite(limit)) return null;
      const tracker = await props.getTracker(req, context);
      const record = await this.storageService.increment(props.generateKey(context, tracker, name), ttl, limit, blockDuration, name);
      return windowOf(record, limit);
    };
    const [requests, tokens] = await Promise.all([countRequest(), this.limits.peekTokens(key)]);
    // Throws the 429 with all known headers when refused.
    const state = this.limits.admitRequest(key, requests, tokens);
    request.rateLimit = state;
    for (const [name, value] of Object.entries(this.limits.headers(state))) this.setResponseHeader(res, name, value);
    return true;
  }
}

function windowOf(record: ThrottlerStorageRecord, limit: number): WindowResult {
  const exact = (record as Partial<PlanThrottlerStorageRecord>).window;
  if (exact) return exact;
  // A plain ThrottlerStorage (not ours): rebuild what we can from its record.
  const used = record.isBlocked ? Math.max(0, record.totalHits - 1) : record.totalHits;
  return {
    allowed: !record.isBlocked,
    used,
    remaining: Math.max(0, limit - used),
    resetMs: record.isBlocked ? record.timeToBlockExpire * 1000 : 0,
    windowResetMs: record.timeToExpire * 1000,
    limit,
  };
}
