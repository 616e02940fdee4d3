import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type Redis from 'ioredis';
import { FailoverRateLimitStore } from './failover-rate-limit-store';
import { MemoryRateLimitStore } from './memory-rate-limit-store';
import type { RateLimitStore, WindowResult } from './rate-limit-store';
import { RedisRateLimitStore } from './redis-rate-limit-store';
import { connect, removeKeys, uniquePrefix } from './__fixtures__/redis';

const WINDOW = 60_000;
const allowed = (results: WindowResult[]) => results.filter((r) => r.allowed).length;

function logger() {
  return { warn: jest.fn(), info: jest.fn() };
}

/** A primary that fails (or hangs) on demand. */
class FlakyStore implements RateLimitStore {
  mode: 'ok' | 'fail' | 'hang' = 'ok';
  calls = 0;
  constructor(readonly inner: RateLimitStore = new MemoryRateLimitStore()) {}
  private gate<T>(call: () => Promise<T>): Promise<T> {
    this.calls++;
    if (this.mode === 'fail') return Promise.reject(new Error('ECONNREFUSED'));
    if (this.mode === 'hang') return new Promise<T>(() => undefined);
    return call();
  }
  hit(...args: Parameters<RateLimitStore['hit']>) {
    return this.gate(() => this.inner.hit(...args));
  }
  reserve(...args: Parameters<RateLimitStore['reserve']>) {
    return this.gate(() => this.inner.reserve(...args));
  }
  settle(...args: Parameters<RateLimitStore['settle']>) {
    return this.gate(() => this.inner.settle(...args));
  }
  peek(...args: Parameters<RateLimitStore['peek']>) {
    return this.gate(() => this.inner.peek(...args));
  }
}

/** A TCP relay in front of the real Redis that can be cut and restored, to stop "Redis" mid-test. */
class RedisRelay {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(6379, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('FailoverRateLimitStore', () => {
  describe('Redis unreachable (a closed port)', () => {
    let client: Redis;
    beforeEach(() => {
      client = connect('redis://127.0.0.1:6390', { connectTimeout: 200, commandTimeout: 200, retryStrategy: () => 100 });
    });
    afterEach(() => client.disconnect());

    it.each([
      ['with the connection-status hint', true],
      ['from errors alone', false],
    ])('answers from the local limiter %s: exact, bounded, counted, one warning', async (_label, hint) => {
      const primary = new RedisRateLimitStore(client, { prefix: uniquePrefix() });
      const log = logger();
      const store = new FailoverRateLimitStore(primary, {
        logger: log,
        timeoutMs: 500,
        isUnavailable: hint ? () => primary.isUnavailable() : undefined,
      });
      const started = Date.now();
      const results = await Promise.all(Array.from({ length: 130 }, () => store.hit('key', 100, WINDOW, Date.now())));
      expect(allowed(results)).toBe(100);
      const more = [];
      for (let i = 0; i < 20; i++) more.push(await store.hit('key', 100, WINDOW, Date.now()));
      expect(allowed(more)).toBe(0);
      const reservation = await store.reserve('tokens', 400, 1_000, WINDOW, Date.now());
      expect(reservation.allowed).toBe(true);
      await expect(store.settle('tokens', reservation.reservationId!, 100, WINDOW, Date.now())).resolves.toBeUndefined();
      expect((await store.peek('tokens', 1_000, WINDOW, Date.now())).used).toBe(100);
      expect(Date.now() - started).toBeLessThan(2_500);

      expect(store.failures()).toBeGreaterThanOrEqual(1);
      expect(store.metrics()).toMatchObject({ degraded: true, outages: 1 });
      expect(store.metrics().fallbackCalls).toBeGreaterThanOrEqual(150);
      expect(log.warn).toHaveBeenCalledTimes(1);
      expect(log.warn.mock.calls[0]![1]).toMatch(/redis unavailable/);
    });
  });

  it('gives up on a primary that hangs after timeoutMs', async () => {
    const primary = new FlakyStore();
    primary.mode = 'hang';
    const log = logger();
    const store = new FailoverRateLimitStore(primary, { logger: log, timeoutMs: 100 });
    const started = Date.now();
    const result = await store.hit('k', 1, WINDOW, Date.now());
    expect(result.allowed).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(store.failures()).toBe(1);
    // Degraded now: the next calls do not wait on the primary at all.
    const again = Date.now();
    expect((await store.hit('k', 1, WINDOW, Date.now())).allowed).toBe(false);
    expect(Date.now() - again).toBeLessThan(50);
    expect(primary.calls).toBe(1);
    expect(log.warn).toHaveBeenCalledTimes(1);
  });

  it('probes at most once per interval while degraded and returns to the primary when it answers', async () => {
    let clock = 1_000;
    const primary = new FlakyStore();
    const log = logger();
    const store = new FailoverRateLimitStore(primary, { logger: log, probeIntervalMs: 1_000, clock: () => clock });

    expect((await store.hit('k', 10, WINDOW, 0)).used).toBe(1);
    primary.mode = 'fail';
    for (let i = 0; i < 10; i++) await store.hit('k', 10, WINDOW, 0);
    expect(primary.calls).toBe(2);
    clock += 1_000;
    await store.hit('k', 10, WINDOW, 0);
    expect(primary.calls).toBe(3);
    expect(store.failures()).toBe(2);

    primary.mode = 'ok';
    await store.hit('k', 10, WINDOW, 0);
    expect(primary.calls).toBe(3);
    clock += 1_000;
    // The probe succeeds: this and later calls are the primary's again.
    expect((await store.hit('k', 10, WINDOW, 0)).used).toBe(2);
    expect((await store.hit('k', 10, WINDOW, 0)).used).toBe(3);
    expect(store.metrics()).toMatchObject({ degraded: false, failures: 2, outages: 1 });
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.info).toHaveBeenCalledTimes(1);

    // A second outage is a second warning.
    primary.mode = 'fail';
    await store.hit('k', 10, WINDOW, 0);
    expect(log.warn).toHaveBeenCalledTimes(2);
  });

  it('settles each reservation in the store that made it', async () => {
    let clock = 0;
    const primary = new FlakyStore();
    const local = new MemoryRateLimitStore();
    const store = new FailoverRateLimitStore(primary, { fallback: local, probeIntervalMs: 10, clock: () => clock });
    const remote = await store.reserve('t', 500, 1_000, WINDOW, 0);
    primary.mode = 'fail';
    const fallback = await store.reserve('t', 300, 1_000, WINDOW, 0);
    expect(remote.reservationId).not.toEqual(fallback.reservationId);
    primary.mode = 'ok';
    clock += 10;
    await store.settle('t', fallback.reservationId!, 0, WINDOW, 0);
    await store.settle('t', remote.reservationId!, 100, WINDOW, 0);
    expect((await local.peek('t', 1_000, WINDOW, 0)).used).toBe(0);
    expect((await primary.inner.peek('t', 1_000, WINDOW, 0)).used).toBe(100);
  });

  it('admits everything under the open policy', async () => {
    const primary = new FlakyStore();
    primary.mode = 'fail';
    const store = new FailoverRateLimitStore(primary, { policy: 'open', logger: logger() });
    const results = await Promise.all(Array.from({ length: 50 }, () => store.hit('k', 10, WINDOW, 0)));
    expect(allowed(results)).toBe(50);
    expect((await store.reserve('t', 5_000, 10, WINDOW, 0)).allowed).toBe(true);
  });

  it('keeps answering when real Redis is cut mid-test, and shares limits again once it is back', async () => {
    const relay = new RedisRelay();
    await relay.start();
    const prefix = uniquePrefix();
    const direct = connect();
    const client = connect(`redis://127.0.0.1:${relay.port}`, { connectTimeout: 300, commandTimeout: 300, retryStrategy: () => 50 });
    const log = logger();
    const primary = new RedisRateLimitStore(client, { prefix });
    const store = new FailoverRateLimitStore(primary, { logger: log, timeoutMs: 500, probeIntervalMs: 100, isUnavailable: () => primary.isUnavailable() });
    const key = `cut-${randomUUID()}`;
    try {
      expect(allowed(await Promise.all(Array.from({ length: 3 }, () => store.hit(key, 100, WINDOW, Date.now()))))).toBe(3);
      expect(await direct.zcard(`${prefix}{${key}}`)).toBe(3);

      await relay.stop();
      const started = Date.now();
      const during = await Promise.all(Array.from({ length: 20 }, () => store.hit(key, 10, WINDOW, Date.now())));
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(allowed(during)).toBe(10); // the local limiter, from an empty window
      expect(store.metrics().degraded).toBe(true);
      expect(log.warn).toHaveBeenCalledTimes(1);

      await relay.start();
      await until(() => client.status === 'ready');
      await new Promise((r) => setTimeout(r, 150));
      await store.hit(key, 100, WINDOW, Date.now());
      await store.hit(key, 100, WINDOW, Date.now());
      expect(store.metrics().degraded).toBe(false);
      expect(await direct.zcard(`${prefix}{${key}}`)).toBe(5);
      expect(log.warn).toHaveBeenCalledTimes(1);
      expect(log.info).toHaveBeenCalledTimes(1);
    } finally {
      client.disconnect();
      await relay.stop();
      await removeKeys(direct, prefix);
      direct.disconnect();
    }
  });
});
