import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { RATE_LIMIT_KEY_PREFIX, RedisRateLimitStore } from './redis-rate-limit-store';
import { connect, countKeys, removeKeys, uniquePrefix } from './__fixtures__/redis';
import { storeContract } from './__fixtures__/store-contract';

describe('RedisRateLimitStore (real Redis, two clients as two replicas)', () => {
  const prefix = uniquePrefix();
  let one: Redis;
  let two: Redis;
  let a: RedisRateLimitStore;
  let b: RedisRateLimitStore;

  beforeAll(async () => {
    one = connect();
    two = connect();
    await Promise.all([one.ping(), two.ping()]);
    a = new RedisRateLimitStore(one, { prefix });
    b = new RedisRateLimitStore(two, { prefix });
  });

  afterAll(async () => {
    await removeKeys(one, prefix);
    expect(await countKeys(one, prefix)).toBe(0);
    one.disconnect();
    two.disconnect();
  });

  describe('contract', () => {
    storeContract(() => ({ a, b }));
  });

  it('keeps the window and its sum under the prefix, both expiring after one window', async () => {
    const key = `ttl-${randomUUID()}`;
    await a.reserve(key, 7, 100, 60_000, Date.now());
    const [zset, sum] = [`${prefix}{${key}}`, `${prefix}{${key}}:sum`];
    expect(await one.zcard(zset)).toBe(1);
    expect(await one.get(sum)).toBe('7');
    for (const name of [zset, sum]) {
      const ttl = await one.pttl(name);
      expect(ttl).toBeGreaterThan(55_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
  });

  it('rebuilds a lost running sum from the window itself', async () => {
    const key = `sum-${randomUUID()}`;
    const now = Date.now();
    await a.reserve(key, 40, 100, 60_000, now);
    await b.reserve(key, 35, 100, 60_000, now);
    await one.del(`${prefix}{${key}}:sum`);
    expect(await b.peek(key, 100, 60_000, now)).toMatchObject({ used: 75, remaining: 25 });
    expect((await a.reserve(key, 26, 100, 60_000, now)).allowed).toBe(false);
    expect((await a.reserve(key, 25, 100, 60_000, now)).allowed).toBe(true);
  });

  it('deletes the sum once the window is empty', async () => {
    const key = `empty-${randomUUID()}`;
    await a.hit(key, 5, 60_000, 1_000_000);
    await a.peek(key, 5, 60_000, 1_000_000 + 60_000);
    expect(await one.exists(`${prefix}{${key}}`, `${prefix}{${key}}:sum`)).toBe(0);
  });

  it('uses rosetta:rl: by default', async () => {
    const store = new RedisRateLimitStore(one);
    const key = `default-${randomUUID()}`;
    try {
      await store.hit(key, 5, 60_000, Date.now());
      expect(RATE_LIMIT_KEY_PREFIX).toBe('rosetta:rl:');
      expect(await one.exists(`rosetta:rl:{${key}}`)).toBe(1);
    } finally {
      await one.del(`rosetta:rl:{${key}}`, `rosetta:rl:{${key}}:sum`);
    }
  });

  it('answers each operation in one round trip (one script call)', async () => {
    const key = `trip-${randomUUID()}`;
    const sent: string[] = [];
    const original = one.sendCommand.bind(one);
    const spy = jest.spyOn(one, 'sendCommand').mockImplementation((command, stream) => {
      sent.push(command.name);
      return original(command, stream);
    });
    try {
      const r = await a.reserve(key, 5, 100, 60_000, Date.now());
      await a.hit(`${key}-h`, 5, 60_000, Date.now());
      await a.settle(key, r.reservationId!, 1, 60_000, Date.now());
      await a.peek(key, 100, 60_000, Date.now());
    } finally {
      spy.mockRestore();
    }
    expect(sent).toEqual(['evalsha', 'evalsha', 'evalsha', 'evalsha']);
  });
});
