import { createServer } from 'node:net';
import { Test } from '@nestjs/testing';
import Redis from 'ioredis';
import { CircuitBreakerService } from './circuit-breaker.service';
import { EndpointHealthService, EndpointStatus, type EndpointHealthOptions } from './endpoint-health.service';
import { EndpointHealthModule } from './health.module';
import { binIndex, MINUTE_MS, MS_SCALE } from './rolling-stats';

const EP = 'acme/gpt-4o-mini';
const OK = { ok: true, failure: false, latencyMs: 200, ttftMs: 80, outputTokens: 100 } as const;
const FAIL = { ok: false, failure: true, latencyMs: 1000 } as const;
const CALLER = { ok: false, failure: false, latencyMs: 10 } as const;

function fakeLogger(): { warn: jest.Mock; info: jest.Mock; logger: any } {
  const warn = jest.fn();
  const info = jest.fn();
  return { warn, info, logger: { warn, info } };
}

function repeat(service: EndpointHealthService, endpoint: string, outcome: Parameters<EndpointHealthService['record']>[1], times: number): void {
  for (let i = 0; i < times; i++) service.record(endpoint, outcome);
}

describe('EndpointHealthService, local', () => {
  const clock = { now: Date.UTC(2025, 0, 1, 12, 0, 0) };
  const options: EndpointHealthOptions = { clock: () => clock.now, autoStart: false };

  beforeEach(() => {
    clock.now = Date.UTC(2025, 0, 1, 12, 0, 0);
  });

  it('records and summarises without Redis', () => {
    const health = new EndpointHealthService(null, undefined, fakeLogger().logger, options);
    expect(health.stats(EP).samples).toBe(0);
    expect(health.uptime(EP)).toBeNull();
    repeat(health, EP, OK, 3);
    health.record(EP, FAIL);
    health.record(EP, CALLER);
    expect(health.stats(EP)).toMatchObject({ samples: 4, successRate: 0.75 });
    expect(health.uptime(EP)).toBe(75);
    expect(binIndex(MS_SCALE, health.stats(EP).ttftP50!)).toBe(binIndex(MS_SCALE, 80));
  });

  describe('status thresholds', () => {
    let health: EndpointHealthService;
    beforeEach(() => {
      health = new EndpointHealthService(null, undefined, fakeLogger().logger, options);
    });

    it('operational without traffic, and with too few samples to judge', () => {
      expect(health.status(EP)).toBe(EndpointStatus.Operational);
      repeat(health, EP, FAIL, 4);
      expect(health.status(EP)).toBe(EndpointStatus.Operational);
    });

    it('down below 50 % over at least 5 samples', () => {
      repeat(health, EP, FAIL, 5);
      expect(health.status(EP)).toBe(EndpointStatus.Down);
      repeat(health, EP, OK, 4); // 4 / 9
      expect(health.status(EP)).toBe(EndpointStatus.Down);
      health.record(EP, OK); // 5 / 10 = 50 %: not below
      expect(health.status(EP)).toBe(EndpointStatus.Degraded);
    });

    it('degraded below 95 %, operational at 95 %', () => {
      repeat(health, EP, OK, 18);
      health.record(EP, FAIL); // 18 / 19 ≈ 94.7 %
      expect(health.status(EP)).toBe(EndpointStatus.Degraded);
      health.record(EP, OK); // 19 / 20 = 95 %
      expect(health.status(EP)).toBe(EndpointStatus.Operational);
    });

    it('caller errors do not count against the endpoint', () => {
      repeat(health, EP, CALLER, 20);
      repeat(health, EP, OK, 5);
      expect(health.status(EP)).toBe(EndpointStatus.Operational);
      expect(health.uptime(EP)).toBe(100);
    });

    it('status looks at the last 5 minutes, uptime at 30', () => {
      repeat(health, EP, FAIL, 10);
      expect(health.status(EP)).toBe(EndpointStatus.Down);
      clock.now += 5 * MINUTE_MS;
      repeat(health, EP, OK, 10);
      expect(health.status(EP)).toBe(EndpointStatus.Operational);
      expect(health.uptime(EP)).toBe(50);
      clock.now += 30 * MINUTE_MS;
      expect(health.uptime(EP)).toBeNull();
    });

    it('disabled by the operator wins over everything', () => {
      repeat(health, EP, FAIL, 10);
      health.setDisabled(EP, true);
      expect(health.status(EP)).toBe(EndpointStatus.Disabled);
      expect(health.status('other/model')).toBe(EndpointStatus.Operational);
      health.setDisabled(EP, false);
      expect(health.status(EP)).toBe(EndpointStatus.Down);
    });
  });

  it('feeds the circuit breaker: open is down, half-open degraded, a good probe operational', () => {
    const breaker = new CircuitBreakerService({ clock: () => clock.now });
    const health = new EndpointHealthService(null, breaker, fakeLogger().logger, options);
    repeat(health, EP, OK, 100);
    repeat(health, EP, CALLER, 10); // the endpoint answered: no breaker failures
    expect(breaker.state(EP)).toBe('closed');
    repeat(health, EP, FAIL, 5); // 100 / 105 recent: only the breaker says something is wrong
    expect(breaker.state(EP)).toBe('open');
    expect(health.status(EP)).toBe(EndpointStatus.Down);
    clock.now += 30_000;
    expect(health.status(EP)).toBe(EndpointStatus.Degraded);
    expect(breaker.tryAcquire(EP)).toBe(true);
    health.record(EP, OK);
    expect(breaker.state(EP)).toBe('closed');
    expect(health.status(EP)).toBe(EndpointStatus.Operational);
  });

  it('answers the registry port: available, view, report', () => {
    const breaker = new CircuitBreakerService({ clock: () => clock.now });
    const health = new EndpointHealthService(null, breaker, fakeLogger().logger, options);
    expect(health.view(EP)).toEqual({ status: 0, throughputP50: null, latencyP50: null, ttftP50: null, uptime: null });
    for (let i = 0; i < 5; i++) health.report(EP, FAIL);
    expect(health.available(EP)).toBe(false);
    expect(health.view(EP)).toMatchObject({ status: EndpointStatus.Down, uptime: 0 });
    clock.now += 30_000;
    expect(health.available(EP)).toBe(true);
    expect(breaker.tryAcquire(EP)).toBe(true);
    expect(health.available(EP)).toBe(false); // the probe is out
    health.report(EP, OK);
    expect(health.available(EP)).toBe(true);
    health.setDisabled(EP, true);
    expect(health.available(EP)).toBe(false);
    expect(new EndpointHealthService(null, undefined, fakeLogger().logger, options).available(EP)).toBe(true);
  });

  it('is wired by the Nest module without Redis', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [EndpointHealthModule] }).compile();
    const health = moduleRef.get(EndpointHealthService);
    const breaker = moduleRef.get(CircuitBreakerService);
    repeat(health, EP, FAIL, 5);
    expect(breaker.state(EP)).toBe('open');
    expect(health.status(EP)).toBe(EndpointStatus.Down);
    await moduleRef.close();
  });
});

describe('EndpointHealthService, shared through Redis', () => {
  const prefix = `rosetta:test:health:${process.pid}:${Date.now()}:`;
  const clock = { now: Date.now() };
  const options: EndpointHealthOptions = { clock: () => clock.now, keyPrefix: prefix, autoStart: false };
  let redisA: Redis;
  let redisB: Redis;

  beforeAll(() => {
    redisA = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 });
    redisB = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 });
  });

  afterAll(async () => {
    const keys = await redisA.keys(`${prefix}*`);
    if (keys.length) await redisA.del(...keys);
    await redisA.quit();
    await redisB.quit();
  });

  it('two replicas see each other after a flush and a refresh, without double counting', async () => {
    const a = new EndpointHealthService(redisA, undefined, fakeLogger().logger, options);
    const b = new EndpointHealthService(redisB, undefined, fakeLogger().logger, options);
    repeat(a, EP, { ok: true, failure: false, latencyMs: 100 }, 8);
    repeat(a, EP, FAIL, 2);
    repeat(b, EP, { ok: true, failure: false, latencyMs: 1000 }, 10);
    expect(a.stats(EP).samples).toBe(10);
    expect(b.stats(EP).samples).toBe(10);

    await Promise.all([a.flush(), b.flush()]);
    await Promise.all([a.refresh(), b.refresh()]);
    for (const replica of [a, b]) {
      const stats = replica.stats(EP);
      expect(stats).toMatchObject({ samples: 20, successes: 18, failures: 2, successRate: 0.9 });
      // 8 at 100 ms and 10 at 1 s: the median success is a 1 s one.
      expect(binIndex(MS_SCALE, stats.latencyP50!)).toBe(binIndex(MS_SCALE, 1000));
      expect(replica.status(EP)).toBe(EndpointStatus.Degraded);
    }

    // Refreshing again, and flushing with nothing new, changes nothing.
    await a.flush();
    await a.refresh();
    expect(a.stats(EP).samples).toBe(20);

    // Recorded but not yet flushed: visible here at once, and kept over a refresh; not elsewhere.
    a.record(EP, OK);
    expect(a.stats(EP).samples).toBe(21);
    await a.refresh();
    await b.refresh();
    expect(a.stats(EP).samples).toBe(21);
    expect(b.stats(EP).samples).toBe(20);
    await a.flush();
    await Promise.all([a.refresh(), b.refresh()]);
    expect(a.stats(EP).samples).toBe(21);
    expect(b.stats(EP).samples).toBe(21);

    const keys = await redisA.keys(`${prefix}{h}:${EP}:*`);
    expect(keys).toEqual([`${prefix}{h}:${EP}:${Math.floor(clock.now / MINUTE_MS)}`]);
    const ttl = await redisA.ttl(keys[0]!);
    expect(ttl).toBeGreaterThan(30 * 60);
    expect(ttl).toBeLessThanOrEqual(31 * 60);
  });

  it('a replica learns about an endpoint it only asked about, and its outage shows as down', async () => {
    const endpoint = 'flaky/llama-3.1-8b:instruct';
    const a = new EndpointHealthService(redisA, undefined, fakeLogger().logger, options);
    const b = new EndpointHealthService(redisB, undefined, fakeLogger().logger, options);
    expect(b.status(endpoint)).toBe(EndpointStatus.Operational);
    repeat(a, endpoint, FAIL, 6);
    await a.flush();
    await b.refresh();
    expect(b.status(endpoint)).toBe(EndpointStatus.Down);
    expect(b.uptime(endpoint)).toBe(0);
  });

  it('older minutes written by others count within the window only', async () => {
    const endpoint = 'old/model';
    const a = new EndpointHealthService(redisA, undefined, fakeLogger().logger, options);
    const b = new EndpointHealthService(redisB, undefined, fakeLogger().logger, options);
    const start = clock.now;
    b.track(endpoint);
    try {
      repeat(a, endpoint, FAIL, 3);
      clock.now += 10 * MINUTE_MS;
      repeat(a, endpoint, OK, 1);
      await a.flush();
      await b.refresh();
      expect(b.stats(endpoint)).toMatchObject({ samples: 4, failures: 3 });
      clock.now = start + 30 * MINUTE_MS;
      await b.refresh();
      expect(b.stats(endpoint)).toMatchObject({ samples: 1, failures: 0 });
    } finally {
      clock.now = start;
    }
  });

  it('survives a lost connection: stats keep working, one warning, deltas kept and sent later', async () => {
    const endpoint = 'reconnect/model';
    const client = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1, lazyConnect: true });
    client.on('error', () => undefined);
    await client.connect();
    const { warn, info, logger } = fakeLogger();
    const a = new EndpointHealthService(client, undefined, logger, options);
    const b = new EndpointHealthService(redisB, undefined, fakeLogger().logger, options);
    b.track(endpoint);
    try {
      client.disconnect();
      repeat(a, endpoint, OK, 3);
      await expect(a.flush()).resolves.toBeUndefined();
      await expect(a.refresh()).resolves.toBeUndefined();
      a.record(endpoint, FAIL);
      await a.flush();
      expect(a.stats(endpoint)).toMatchObject({ samples: 4, failures: 1 });
      expect(warn).toHaveBeenCalledTimes(1);

      await client.connect();
      await a.flush();
      expect(info).toHaveBeenCalledTimes(1);
      await Promise.all([a.refresh(), b.refresh()]);
      expect(b.stats(endpoint)).toMatchObject({ samples: 4, failures: 1 });
      expect(a.stats(endpoint)).toMatchObject({ samples: 4, failures: 1 });
    } finally {
      client.disconnect();
    }
  });

  it('flushes on module destroy', async () => {
    const endpoint = 'shutdown/model';
    const moduleRef = await Test.createTestingModule({ imports: [EndpointHealthModule] })
      .overrideProvider(EndpointHealthService)
      .useValue(new EndpointHealthService(redisA, undefined, fakeLogger().logger, { ...options, autoStart: true, flushIntervalMs: 60_000, refreshIntervalMs: 60_000 }))
      .compile();
    await moduleRef.init();
    moduleRef.get(EndpointHealthService).record(endpoint, OK);
    await moduleRef.close();
    expect(await redisA.hget(`${prefix}{h}:${endpoint}:${Math.floor(clock.now / MINUTE_MS)}`, 's')).toBe('1');
  });
});

describe('EndpointHealthService, Redis down', () => {
  let port: number;
  let client: Redis;

  beforeAll(async () => {
    // A port nothing listens on.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1, connectTimeout: 500, disconnectTimeout: 50, retryStrategy: (times) => Math.min(times * 50, 200) });
    client.on('error', () => undefined);
  });

  afterAll(() => {
    client.disconnect();
  });

  it('record, stats and status work, flush and refresh never throw, one warning per outage', async () => {
    const { warn, logger } = fakeLogger();
    const health = new EndpointHealthService(client, new CircuitBreakerService(), logger, { autoStart: false });
    expect(() => repeat(health, EP, OK, 4)).not.toThrow();
    health.record(EP, FAIL);
    await expect(health.flush()).resolves.toBeUndefined();
    await expect(health.refresh()).resolves.toBeUndefined();
    await expect(health.flush()).resolves.toBeUndefined();
    expect(health.stats(EP)).toMatchObject({ samples: 5, failures: 1, successRate: 0.8 });
    expect(health.status(EP)).toBe(EndpointStatus.Degraded);
    expect(health.uptime(EP)).toBe(80);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('timers run against a dead Redis without throwing, and stop on module destroy', async () => {
    const { warn, logger } = fakeLogger();
    const health = new EndpointHealthService(client, new CircuitBreakerService(), logger, { flushIntervalMs: 20, refreshIntervalMs: 30 });
    health.onModuleInit();
    try {
      health.record(EP, OK);
      const deadline = Date.now() + 5_000;
      while (warn.mock.calls.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      await new Promise((resolve) => setTimeout(resolve, 200)); // a few more failing ticks
      expect(health.stats(EP).samples).toBe(1);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      await health.onModuleDestroy();
    }
  });
});
