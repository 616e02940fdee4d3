import { randomUUID } from 'node:crypto';
import { type CanActivate, Controller, type DynamicModule, type ExecutionContext, Get, Inject, Injectable, type INestApplication, Module, Req } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, Reflector } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type Redis from 'ioredis';
import { IS_PUBLIC, Public, type ApiKeyRecord } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { DialectExceptionFilter } from '@rosetta/dialects';
import { INVALIDATION_BUS, LocalInvalidationBus } from '@rosetta/persistence';
import { APP_LOGGER, REDIS_CLIENT } from '@rosetta/platform';
import { PlanCacheService } from '../plan-cache.service';
import { PlanRepository } from '../plan.repository';
import type { PlanRecord } from '../plan.record';
import { LimitsGuardModule } from './limits-guard.module';
import type { RateLimitedRequest } from './plan-throttler.guard';
import { RATE_LIMIT_OPTIONS, RateLimitService } from './rate-limit.service';
import { connect, removeKeys, uniquePrefix } from './__fixtures__/redis';

const KEYS = new Map<string, ApiKeyRecord>();

function addKey(plan: string, overrides: Partial<ApiKeyRecord> = {}): string {
  const secret = `sk-${randomUUID()}`;
  KEYS.set(secret, {
    id: randomUUID(),
    lookupId: 'l',
    name: 'n',
    plan,
    rpm: null,
    tpm: null,
    routeKnob: null,
    teamId: null,
    budget: null,
    models: null,
    createdAt: new Date(),
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: null,
    ...overrides,
  });
  return secret;
}

/** Stands in for ApiKeyGuard: registered first, sets req.apiKey. */
@Injectable()
class FakeApiKeyGuard implements CanActivate {
  // Explicit token: a spec file's type-only imports leave no decorator metadata.
  constructor(@Inject(Reflector) private readonly reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<RateLimitedRequest & { headers: Record<string, string> }>();
    const key = KEYS.get(req.headers['x-api-key'] ?? '');
    if (!key) throw new GatewayError('authentication_error', 'Invalid API key');
    req.apiKey = key;
    return true;
  }
}

@Module({ providers: [{ provide: APP_GUARD, useClass: FakeApiKeyGuard }] })
class FakeAuthModule {}

@Controller()
class ProbeController {
  @Get('v1/ping')
  ping(@Req() req: RateLimitedRequest): { rateLimit?: unknown } {
    return { rateLimit: req.rateLimit };
  }

  @Get('admin/things')
  admin(): { ok: true } {
    return { ok: true };
  }

  @Public()
  @Get('healthz')
  health(): { ok: true } {
    return { ok: true };
  }
}

const plans: PlanRecord[] = [
  { name: 'free', rpm: 100, tpm: 10_000 },
  { name: 'enterprise', rpm: null, tpm: null },
  { name: 'tiny', rpm: 2, tpm: 1_000 },
];

function platform(redis: Redis | null, prefix: string): DynamicModule {
  const providers = [
    { provide: REDIS_CLIENT, useValue: redis },
    { provide: APP_LOGGER, useValue: { warn: jest.fn(), info: jest.fn(), error: jest.fn(), debug: jest.fn() } },
    { provide: INVALIDATION_BUS, useValue: new LocalInvalidationBus() },
    { provide: RATE_LIMIT_OPTIONS, useValue: { keyPrefix: prefix } },
  ];
  return { module: class TestPlatformModule {}, global: true, providers, exports: providers.map((p) => p.provide) };
}

async function startReplica(redis: Redis | null, prefix: string): Promise<{ app: INestApplication; url: string }> {
  const moduleRef = await Test.createTestingModule({
    imports: [platform(redis, prefix), FakeAuthModule, LimitsGuardModule],
    controllers: [ProbeController],
    providers: [{ provide: APP_FILTER, useClass: DialectExceptionFilter }],
  })
    .overrideProvider(PlanRepository)
    .useValue({ list: async () => plans.map((p) => ({ ...p })) })
    .compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, url: await app.getUrl() };
}

const get = (base: string, path: string, secret?: string) => fetch(`${base}${path}`, { headers: secret ? { 'x-api-key': secret } : {} });

describe('PlanThrottlerGuard (two gateway replicas sharing real Redis)', () => {
  const prefix = uniquePrefix();
  const clients: Redis[] = [];
  const replicas: Array<{ app: INestApplication; url: string }> = [];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const client = connect();
      await client.ping();
      clients.push(client);
      replicas.push(await startReplica(client, prefix));
    }
  });

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.app.close()));
    await removeKeys(clients[0]!, prefix);
    for (const client of clients) client.disconnect();
  });

  it('lets exactly 100 of 130 concurrent requests of a Free key through; the other 30 get 429 with the headers', async () => {
    const secret = addKey('free');
    const responses = await Promise.all(Array.from({ length: 130 }, (_, i) => get(replicas[i % 2]!.url, '/v1/ping', secret)));
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(100);
    expect(limited).toHaveLength(30);

    const remaining = ok.map((r) => Number(r.headers.get('x-ratelimit-remaining-requests')));
    expect(new Set(remaining)).toEqual(new Set(Array.from({ length: 100 }, (_, i) => i)));
    for (const r of ok) {
      expect(r.headers.get('x-ratelimit-limit-requests')).toBe('100');
      expect(r.headers.get('x-ratelimit-reset-requests')).toMatch(/^((\d+m)?\d+(\.\d+)?s|\d+ms)$/);
      expect(r.headers.get('x-ratelimit-limit-tokens')).toBe('10000');
      expect(r.headers.get('x-ratelimit-remaining-tokens')).toBe('10000');
      expect(r.headers.get('x-ratelimit-reset-tokens')).toBe('0s');
    }
    const body = (await ok[0]!.json()) as { rateLimit: { plan: string; requests: { limit: number } } };
    expect(body.rateLimit).toMatchObject({ plan: 'free', requests: { limit: 100 } });

    for (const r of limited) {
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
      expect(Number(r.headers.get('retry-after-ms'))).toBeGreaterThan(0);
      expect(r.headers.get('x-ratelimit-limit-requests')).toBe('100');
      expect(r.headers.get('x-ratelimit-remaining-requests')).toBe('0');
      expect(r.headers.get('x-ratelimit-limit-tokens')).toBe('10000');
      const error = (await r.json()) as { error: { type: string; message: string } };
      expect(error.error.type).toBe('rate_limit_error');
      expect(error.error.message).toBe('Rate limit exceeded: 100 requests per minute for plan free');
    }
  });

  it('counts per key across routes and replicas, and skips /admin, probes and public routes', async () => {
    const secret = addKey('tiny');
    for (let i = 0; i < 5; i++) {
      const admin = await get(replicas[i % 2]!.url, '/admin/things', secret);
      expect(admin.status).toBe(200);
      expect(admin.headers.get('x-ratelimit-limit-requests')).toBeNull();
      expect((await get(replicas[i % 2]!.url, '/healthz', secret)).status).toBe(200);
    }
    expect((await get(replicas[0]!.url, '/v1/ping', secret)).status).toBe(200);
    expect((await get(replicas[1]!.url, '/v1/ping?x=1', secret)).status).toBe(200);
    expect((await get(replicas[0]!.url, '/v1/ping', secret)).status).toBe(429);
  });

  it('leaves unauthenticated requests to the auth guard', async () => {
    const response = await get(replicas[0]!.url, '/v1/ping');
    expect(response.status).toBe(401);
    expect(response.headers.get('x-ratelimit-limit-requests')).toBeNull();
  });

  it('does not limit or label unlimited dimensions', async () => {
    const secret = addKey('enterprise', { tpm: 5_000 });
    const responses = await Promise.all(Array.from({ length: 120 }, (_, i) => get(replicas[i % 2]!.url, '/v1/ping', secret)));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(responses[0]!.headers.get('x-ratelimit-limit-requests')).toBeNull();
    expect(responses[0]!.headers.get('x-ratelimit-limit-tokens')).toBe('5000');
  });

  it('applies a plan change made on one replica on the other', async () => {
    const secret = addKey('tiny');
    expect((await get(replicas[0]!.url, '/v1/ping', secret)).status).toBe(200);
    expect((await get(replicas[1]!.url, '/v1/ping', secret)).status).toBe(200);
    expect((await get(replicas[1]!.url, '/v1/ping', secret)).status).toBe(429);
    plans.find((p) => p.name === 'tiny')!.rpm = 3;
    // Each replica has its own bus here; in the gateway the change reaches both through Postgres.
    await Promise.all(replicas.map((r) => r.app.get(PlanCacheService).changed('tiny')));
    const after = await get(replicas[1]!.url, '/v1/ping', secret);
    expect(after.status).toBe(200);
    expect(after.headers.get('x-ratelimit-limit-requests')).toBe('3');
    expect((await get(replicas[0]!.url, '/v1/ping', secret)).status).toBe(429);
    plans.find((p) => p.name === 'tiny')!.rpm = 2;
    await Promise.all(replicas.map((r) => r.app.get(PlanCacheService).changed('tiny')));
  });

  it('exposes one RateLimitService per replica for the token stage', () => {
    expect(replicas[0]!.app.get(RateLimitService)).toBeInstanceOf(RateLimitService);
  });
});

describe('PlanThrottlerGuard without Redis', () => {
  it('limits in process', async () => {
    const replica = await startReplica(null, 'unused:');
    try {
      const secret = addKey('tiny');
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await get(replica.url, '/v1/ping', secret)).status);
      expect(statuses).toEqual([200, 200, 429, 429]);
    } finally {
      await replica.app.close();
    }
  });
});
