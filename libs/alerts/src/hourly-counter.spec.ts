import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { HourlyCounter, hourStart } from './hourly-counter';

const REDIS_URL = process.env['RATE_LIMIT_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe('HourlyCounter (guardrail blocks per check and hour)', () => {
  const prefix = `rosetta:test:alerts:${process.pid}:${randomUUID().slice(0, 8)}:`;
  let a: Redis;
  let b: Redis;

  beforeAll(() => {
    a = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    b = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  });

  afterAll(async () => {
    const keys = await a.keys(`${prefix}*`);
    if (keys.length > 0) await a.del(...keys);
    a.disconnect();
    b.disconnect();
  });

  it('counts across replicas so that each count is seen by exactly one call', async () => {
    const one = new HourlyCounter(a, prefix);
    const two = new HourlyCounter(b, prefix);
    const now = Date.parse('2026-11-29T10:15:00Z');
    const counts = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).add('pii', now)));
    expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // Another check, and the next hour, count on their own.
    expect(await one.add('secrets', now)).toBe(1);
    expect(await two.add('pii', Date.parse('2026-11-29T11:00:00Z'))).toBe(1);
    expect(await a.pttl(`${prefix}{pii}:${hourStart(now).getTime()}`)).toBeGreaterThan(3_600_000);
  });

  it('counts in this process without Redis, starting again each hour', async () => {
    const local = new HourlyCounter(null, prefix);
    const now = Date.parse('2026-11-29T10:59:59Z');
    expect([await local.add('regex', now), await local.add('regex', now), await local.add('pii', now)]).toEqual([1, 2, 1]);
    expect(await local.add('regex', now + 1_000)).toBe(1);
  });
});
