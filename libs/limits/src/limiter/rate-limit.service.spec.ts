import type Redis from 'ioredis';
import type { ApiKeyRecord } from '@rosetta/auth';
import type { AppLogger } from '@rosetta/platform';
import type { PlanCacheService } from '../plan-cache.service';
import type { PlanRecord } from '../plan.record';
import { FailoverRateLimitStore } from './failover-rate-limit-store';
import { MemoryRateLimitStore } from './memory-rate-limit-store';
import { RateLimitService, rateLimitOptionsFromEnv, type RateLimitOptions } from './rate-limit.service';
import { connect, removeKeys, uniquePrefix } from './__fixtures__/redis';
import { keyRecord, refusal } from '../__fixtures__/admission';

const PLANS: PlanRecord[] = [
  { name: 'free', rpm: 100, tpm: 10_000, cache: null, promptCache: null },
  { name: 'pro', rpm: 1_000, tpm: 100_000, cache: null, promptCache: null },
  { name: 'enterprise', rpm: null, tpm: null, cache: null, promptCache: null },
  { name: 'tiny', rpm: 3, tpm: 1_000, cache: null, promptCache: null },
];

function plans(): PlanCacheService {
  const byName = new Map(PLANS.map((p) => [p.name, p]));
  return { get: (name: string) => byName.get(name) } as unknown as PlanCacheService;
}

function apiKey(plan: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return keyRecord({ name: 'test', plan, ...overrides });
}

function logger() {
  return { warn: jest.fn(), info: jest.fn(), error: jest.fn(), debug: jest.fn() };
}

function service(redis: Redis | null, options?: RateLimitOptions, log = logger()): RateLimitService {
  return new RateLimitService(redis, plans(), log as unknown as AppLogger, options);
}

describe('RateLimitService (in process, no Redis)', () => {
  it('uses the memory store without REDIS_URL', () => {
    expect(service(null).store).toBeInstanceOf(MemoryRateLimitStore);
  });

  it("counts requests against the key's plan and refuses past it with a 429 carrying the headers", async () => {
    const limits = service(null);
    const key = apiKey('tiny');
    const now = 1_700_000_000_000;
    const first = await limits.checkRequest(key, now);
    expect(first.plan).toBe('tiny');
    expect(first.requests).toMatchObject({ allowed: true, used: 1, remaining: 2, limit: 3 });
    expect(first.tokens).toMatchObject({ used: 0, remaining: 1_000, limit: 1_000 });
    expect(limits.headers(first)).toEqual({
      'x-ratelimit-limit-requests': '3',
      'x-ratelimit-remaining-requests': '2',
      'x-ratelimit-reset-requests': '1m0s',
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '1000',
      'x-ratelimit-reset-tokens': '0s',
    });
    await limits.checkRequest(key, now + 10_000);
    await limits.checkRequest(key, now + 20_000);

    const error = await refusal(limits.checkRequest(key, now + 30_000));
    expect(error.type).toBe('rate_limit_error');
    expect(error.status).toBe(429);
    expect(error.message).toBe('Rate limit exceeded: 3 requests per minute for plan tiny');
    expect(error.retryAfterMs).toBe(30_000);
    expect(error.headers).toMatchObject({
      'x-ratelimit-limit-requests': '3',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '50s',
      'x-ratelimit-limit-tokens': '1000',
    });
    // The refusal was not counted: the first request's slot frees exactly a window later.
    await expect(limits.checkRequest(key, now + 60_000)).resolves.toBeDefined();
  });

  it('applies per-key overrides and leaves unlimited dimensions unlimited', async () => {
    const limits = service(null);
    const unlimited = apiKey('enterprise');
    for (let i = 0; i < 50; i++) await limits.checkRequest(unlimited);
    const state = await limits.checkRequest(unlimited);
    expect(state).toEqual({ plan: 'enterprise', requests: null, tokens: null });
    expect(limits.headers(state)).toEqual({});
    const reservation = await limits.reserveTokens(unlimited, 10_000_000);
    expect(reservation.reserved).toBe(0);
    await reservation.settle(5);

    const capped = apiKey('enterprise', { rpm: 2, tpm: 100 });
    await limits.checkRequest(capped);
    await limits.checkRequest(capped);
    const error = await refusal(limits.checkRequest(capped));
    expect(error.message).toBe('Rate limit exceeded: 2 requests per minute for plan enterprise');
    await expect(refusal(limits.reserveTokens(capped, 101))).resolves.toMatchObject({ status: 429 });
  });

  it('reserves tokens, refuses what does not fit, and settles once to the actual usage', async () => {
    const limits = service(null);
    const key = apiKey('tiny');
    const now = 1_700_000_000_000;
    const first = await limits.reserveTokens(key, 600, now);
    expect(first.reserved).toBe(600);
    expect(first.state.tokens).toMatchObject({ used: 600, remaining: 400 });
    expect(limits.headers(first.state)['x-ratelimit-remaining-tokens']).toBe('400');

    const error = await refusal(limits.reserveTokens(key, 600, now + 5_000));
    expect(error.message).toBe("Rate limit exceeded: the request needs 600 tokens and 400 of plan tiny's 1,000 tokens per minute remain: retry in 55 s");
    expect(error.retryAfterMs).toBe(55_000);
    expect(error.headers).toMatchObject({ 'x-ratelimit-limit-tokens': '1000', 'x-ratelimit-remaining-tokens': '400' });

    await first.settle(150);
    await first.settle(0);
    await first.settle(900);
    const second = await limits.reserveTokens(key, 600, now + 6_000);
    expect(second.state.tokens).toMatchObject({ used: 750, remaining: 250 });
    await second.settle(600);
    expect((await limits.peekTokens(key, now + 7_000))?.used).toBe(750);
    // The first reservation leaves the window a minute after it was made, with its settled amount.
    expect((await limits.peekTokens(key, now + 60_000))?.used).toBe(600);
  });

  it('refuses a request that needs more than the whole per-minute budget, without a retry hint', async () => {
    const limits = service(null);
    const key = apiKey('tiny');
    const state = await limits.checkRequest(key);
    const error = await refusal(limits.reserveTokens(key, 1_001, Date.now(), state));
    expect(error.status).toBe(429);
    expect(error.message).toBe(
      "Rate limit exceeded: the request needs 1,001 tokens, more than plan tiny's 1,000 tokens per minute: shorten the prompt or use a key whose plan allows more tokens per minute",
    );
    expect(error.retryAfterMs).toBeUndefined();
    expect(error.headers).toMatchObject({ 'x-should-retry': 'false', 'x-ratelimit-limit-requests': '3', 'x-ratelimit-limit-tokens': '1000' });
  });

  it('treats a key whose plan is gone as free', async () => {
    const limits = service(null);
    expect(limits.limitsFor(apiKey('vanished'))).toEqual({ rpm: 100, tpm: 10_000 });
  });

  it('reads the failure policy from RATE_LIMIT_REDIS_FAILURE and the output reservation from TPM_OUTPUT_RESERVATION', () => {
    expect(rateLimitOptionsFromEnv({})).toEqual({ onRedisFailure: 'local', outputReservation: 4_096 });
    expect(rateLimitOptionsFromEnv({ RATE_LIMIT_REDIS_FAILURE: 'open', TPM_OUTPUT_RESERVATION: '0' })).toEqual({ onRedisFailure: 'open', outputReservation: 0 });
    expect(() => rateLimitOptionsFromEnv({ RATE_LIMIT_REDIS_FAILURE: 'closed' })).toThrow(/RATE_LIMIT_REDIS_FAILURE/);
    expect(() => rateLimitOptionsFromEnv({ TPM_OUTPUT_RESERVATION: 'lots' })).toThrow(/TPM_OUTPUT_RESERVATION: must be a whole number/);
  });

  it('reserves the prompt plus a bounded output cap, clamped to the endpoint, and nothing for an unset cap', async () => {
    const limits = service(null);
    const key = apiKey('pro');
    const reserved = async (request: { prompt: number; maxOutput?: number; endpointMaxOutput?: number }) => (await limits.reserveRequest(key, request)).reserved;
    expect(await reserved({ prompt: 20 })).toBe(20);
    expect(await reserved({ prompt: 2_000, maxOutput: 32_000, endpointMaxOutput: 64_000 })).toBe(2_000 + 4_096);
    expect(await reserved({ prompt: 2_000, maxOutput: 1_000, endpointMaxOutput: 64_000 })).toBe(3_000);
    expect(await reserved({ prompt: 100, maxOutput: 200_000, endpointMaxOutput: 16 })).toBe(116);
  });

  it("says what a refused request needed, what remains (as the headers do) and that max_tokens can be lowered", async () => {
    const limits = service(null);
    const key = apiKey('free');
    await limits.reserveRequest(key, { prompt: 8_000 });
    const error = await refusal(limits.reserveRequest(key, { prompt: 1_500, maxOutput: 32_000, endpointMaxOutput: 16_384 }));
    expect(error.message).toMatch(/^Rate limit exceeded: the request needs 5,596 tokens \(prompt ≈ 1,500 \+ 4,096 reserved for output\) and 2,000 of plan free's 10,000 tokens per minute remain: retry in \d+ s, or lower max_tokens$/);
    expect(error.headers).toMatchObject({ 'x-ratelimit-remaining-tokens': '2000', 'x-ratelimit-limit-tokens': '10000' });
  });
});

describe('RateLimitService with Redis (two replicas)', () => {
  const prefix = uniquePrefix();
  let one: Redis;
  let two: Redis;

  beforeAll(async () => {
    one = connect();
    two = connect();
    await Promise.all([one.ping(), two.ping()]);
  });

  afterAll(async () => {
    await removeKeys(one, prefix);
    one.disconnect();
    two.disconnect();
  });

  it('lets exactly 100 of 130 concurrent requests of a Free key through across both', async () => {
    const replicas = [service(one, { keyPrefix: prefix }), service(two, { keyPrefix: prefix })];
    expect(replicas[0]!.store).toBeInstanceOf(FailoverRateLimitStore);
    const key = apiKey('free');
    const outcomes = await Promise.allSettled(Array.from({ length: 130 }, (_, i) => replicas[i % 2]!.checkRequest(key)));
    const admitted = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(admitted).toHaveLength(100);
    expect(refused).toHaveLength(30);
    for (const r of refused) expect(r.reason).toMatchObject({ type: 'rate_limit_error', status: 429 });
    const remaining = admitted.map((o) => (o as PromiseFulfilledResult<Awaited<ReturnType<RateLimitService['checkRequest']>>>).value.requests!.remaining);
    expect(new Set(remaining).size).toBe(100);
    expect(replicas.map((r) => r.metrics().failures)).toEqual([0, 0]);
  });

  it('never lets concurrent token reservations across both exceed the minute, and settles back', async () => {
    const replicas = [service(one, { keyPrefix: prefix }), service(two, { keyPrefix: prefix })];
    const key = apiKey('tiny');
    const outcomes = await Promise.allSettled(Array.from({ length: 25 }, (_, i) => replicas[i % 2]!.reserveTokens(key, 90)));
    const reservations = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(reservations).toHaveLength(11);
    expect((await replicas[0]!.peekTokens(key))?.used).toBe(990);
    await Promise.all(reservations.map((r) => r.settle(10)));
    expect((await replicas[1]!.peekTokens(key))?.used).toBe(110);
  });

  it('keeps answering from the local limiter when Redis is unreachable', async () => {
    const dead = connect('redis://127.0.0.1:6390', { connectTimeout: 200, commandTimeout: 200, retryStrategy: () => 100 });
    const log = logger();
    try {
      const limits = service(dead, { keyPrefix: prefix, redisTimeoutMs: 300 }, log);
      const key = apiKey('tiny');
      const started = Date.now();
      const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => limits.checkRequest(key)));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
      const reservation = await limits.reserveTokens(key, 500);
      await reservation.settle(10);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(limits.metrics().failures).toBeGreaterThanOrEqual(1);
      expect(limits.metrics().degraded).toBe(true);
      expect(log.warn).toHaveBeenCalledTimes(1);
    } finally {
      dead.disconnect();
    }
  });
});
