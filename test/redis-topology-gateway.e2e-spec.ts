import { startGateway, type GatewayProcess } from './support/gateway-process';
import { waitUntil } from './support/redis-servers';
import { startRedisCluster, startRedisSentinel, type RedisClusterTopology, type RedisSentinelTopology } from './support/redis-topology';
import { createTestDatabase } from './support/services';

async function readiness(gateway: GatewayProcess): Promise<{ status: number; body: Record<string, string> }> {
  const res = await fetch(`${gateway.url}/readyz`);
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/** The compiled gateway takes a cluster or a Sentinel-managed master where it took REDIS_URL. */
describe('the gateway on a Redis Cluster or behind Sentinel', () => {
  let db: { url: string; drop(): Promise<void> };
  const started: GatewayProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await Promise.all(started.map((g) => g.stop()));
    await db?.drop();
  });

  describe('REDIS_CLUSTER_NODES', () => {
    let cluster: RedisClusterTopology;

    beforeAll(async () => {
      cluster = await startRedisCluster();
    });

    afterAll(async () => {
      await cluster?.stop();
    });

    it('is ready with the cluster answering, and runs WORKERS as with REDIS_URL', async () => {
      const gateway = await startGateway({ DATABASE_URL: db.url, WORKERS: '2', ...cluster.env });
      started.push(gateway);
      expect(await readiness(gateway)).toEqual({ status: 200, body: { status: 'ready', database: 'ok', redis: 'ok' } });
      expect(gateway.output()).not.toMatch(/running one process/);
      expect(gateway.output()).toMatch(/"worker":2/);
      await cluster.stop();
      // Every node gone: not ready, by the same rule as a lost REDIS_URL.
      await waitUntil('/readyz turning 503', async () => (await readiness(gateway)).status === 503);
      expect((await readiness(gateway)).body).toEqual({ status: 'not ready', database: 'ok', redis: 'unavailable' });
      await gateway.stop();
    });
  });

  describe('REDIS_SENTINELS and REDIS_SENTINEL_NAME', () => {
    let sentinel: RedisSentinelTopology;

    beforeAll(async () => {
      sentinel = await startRedisSentinel();
    });

    afterAll(async () => {
      await sentinel?.stop();
    });

    it('is ready through the sentinels, and ready again on the new master after a failover', async () => {
      const gateway = await startGateway({ DATABASE_URL: db.url, WORKERS: '1', ...sentinel.env });
      started.push(gateway);
      expect(await readiness(gateway)).toEqual({ status: 200, body: { status: 'ready', database: 'ok', redis: 'ok' } });
      await sentinel.failover();
      await waitUntil('/readyz after the failover', async () => (await readiness(gateway)).status === 200);
      await gateway.stop();
    });

    it('stops at start, naming the variable, when the master name is missing', async () => {
      await expect(startGateway({ DATABASE_URL: db.url, REDIS_SENTINELS: sentinel.env.REDIS_SENTINELS })).rejects.toThrow(
        /invalid configuration: REDIS_SENTINEL_NAME: is required with REDIS_SENTINELS/,
      );
    });
  });
});
