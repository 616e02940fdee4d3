import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { AppLogger } from '@rosetta/platform';
import { CircuitBreakerService } from '@rosetta/routing';
import type { AlertEvent } from './alert-event';
import type { AlertsService } from './alerts.service';
import { CIRCUIT_KEY_PREFIX, CircuitAlertsService } from './circuit-alerts.service';

const REDIS_URL = process.env['RATE_LIMIT_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const logger = { warn: () => undefined } as unknown as AppLogger;

/** One replica: its own breakers and circuit alerts over the shared Redis; what it raised. */
function replica(redis: Redis | null, clock: () => number): { breakers: CircuitBreakerService; raised: AlertEvent[] } {
  const raised: AlertEvent[] = [];
  const breakers = new CircuitBreakerService({ consecutiveFailures: 1, cooldownMs: 1_000, clock });
  new CircuitAlertsService(breakers, { raise: (event: AlertEvent) => raised.push(event) } as unknown as AlertsService, redis, logger).onModuleInit();
  return { breakers, raised };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
  expect(condition()).toBe(true);
}

describe('CircuitAlertsService: one event per provider and opening across replicas', () => {
  const provider = `test-${randomUUID().slice(0, 8)}`;
  let a: Redis;
  let b: Redis;
  let now = 1_764_410_000_000;
  const clock = (): number => now;

  beforeAll(() => {
    a = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    b = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  });

  afterAll(async () => {
    await a.del(`${CIRCUIT_KEY_PREFIX}${provider}`);
    a.disconnect();
    b.disconnect();
  });

  it('names one opening for both replicas, closes it once cleared, and names the next opening anew', async () => {
    const one = replica(a, clock);
    const two = replica(b, clock);
    one.breakers.onFailure(`${provider}/model-x`);
    await until(() => one.raised.length === 1);
    now += 200;
    two.breakers.onFailure(`${provider}/model-y`);
    await until(() => two.raised.length === 1);
    expect(two.raised[0]).toEqual(one.raised[0]);
    expect(one.raised[0]).toMatchObject({ id: `provider.circuit_open:${provider}:1764410000000`, data: { endpoint: `${provider}/model-x` } });

    // A second endpoint of the same provider opening on one replica is the same opening.
    one.breakers.onFailure(`${provider}/model-z`);
    // Both of one's endpoints must close before the provider is closed there.
    now += 1_000;
    expect(one.breakers.tryAcquire(`${provider}/model-x`)).toBe(true);
    one.breakers.onSuccess(`${provider}/model-x`);
    expect(one.breakers.tryAcquire(`${provider}/model-z`)).toBe(true);
    one.breakers.onSuccess(`${provider}/model-z`);
    await until(() => one.raised.length === 2);
    expect(one.raised[1]).toMatchObject({ id: `provider.circuit_closed:${provider}:1764410000000`, event: 'provider.circuit_closed' });
    for (let i = 0; i < 100 && (await a.exists(`${CIRCUIT_KEY_PREFIX}${provider}`)); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await a.exists(`${CIRCUIT_KEY_PREFIX}${provider}`)).toBe(0);

    // The other replica closing later raises the same closing (the outbox keeps one).
    expect(two.breakers.tryAcquire(`${provider}/model-y`)).toBe(true);
    two.breakers.onSuccess(`${provider}/model-y`);
    await until(() => two.raised.length === 2);
    expect(two.raised[1]!.id).toBe(one.raised[1]!.id);

    now += 5_000;
    one.breakers.onFailure(`${provider}/model-x`);
    await until(() => one.raised.length === 3);
    expect(one.raised[2]!.id).toBe(`provider.circuit_open:${provider}:${now}`);
    // model-x closing while model-z was still open raised nothing.
    expect(one.raised.map((event) => event.event)).toEqual(['provider.circuit_open', 'provider.circuit_closed', 'provider.circuit_open']);
  });

  it('without Redis names the opening by its own time', async () => {
    const alone = replica(null, clock);
    alone.breakers.onFailure('solo/model');
    await until(() => alone.raised.length === 1);
    expect(alone.raised[0]!.id).toBe(`provider.circuit_open:solo:${now}`);
  });
});
