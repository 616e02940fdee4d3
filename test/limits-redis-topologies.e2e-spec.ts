import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { ask, freeKeyGetsExactly100, keyBudgetHolds, teamBudgetHolds, tokenLimitHolds, type TwoReplicas } from './support/exactness-checks';
import { createKey, startGateway, TEST_ADMIN_TOKEN, type GatewayProcess } from './support/gateway-process';
import { waitUntil } from './support/redis-servers';
import { startRedisCluster, startRedisSentinel, type RedisClusterTopology, type RedisSentinelTopology } from './support/redis-topology';
import { createTestDatabase } from './support/services';

/** A gauge or counter's value in a /metrics text (NaN when absent). */
function metric(text: string, series: string): number {
  return Number(text.split('\n').find((line) => line.startsWith(`${series} `))?.slice(series.length + 1) ?? NaN);
}

/**
 * The exactness checks of the one-Redis suites (limits-usage, budgets), on two replicas sharing a
 * three-master Redis Cluster: every admission's keys share one hash tag (docs/decisions/0026), so
 * the admission script, its settlement pipelines and the health pipelines never cross slots, and
 * the limiter never falls back to each replica's own counters.
 */
describe('limits and budgets across replicas on a Redis Cluster', () => {
  let cluster: RedisClusterTopology;
  let replicas: TwoReplicas;
  let db: { url: string; drop(): Promise<void> };
  const gateways: GatewayProcess[] = [];

  beforeAll(async () => {
    const [sim, topology, database] = await Promise.all([startSimulator(), startRedisCluster(), createTestDatabase()]);
    cluster = topology;
    db = database;
    const env = { DATABASE_URL: db.url, ...cluster.env, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-operator-000000000000' };
    gateways.push(...(await Promise.all([startGateway(env), startGateway(env)])));
    replicas = { a: gateways[0]!, b: gateways[1]!, sim, db };
  });

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop()));
    await (replicas?.sim as RunningSimulator | undefined)?.close();
    await cluster?.stop();
    await db?.drop();
  });

  it('gives a Free key sending 130 concurrent requests over two replicas exactly 100', async () => {
    await freeKeyGetsExactly100(replicas);
  });

  it('holds a token limit over two replicas, and gives unused reservations back', async () => {
    await tokenLimitHolds(replicas);
  });

  it('never lets concurrent spending on two replicas pass a key budget', async () => {
    await keyBudgetHolds(replicas);
  });

  it('holds two keys of one team to the team budget', async () => {
    await teamBudgetHolds(replicas);
  });

  it('serves a response cached by one replica from the other', async () => {
    const { a, b } = replicas;
    const { key } = await createKey(a, 'pro', { cache: { mode: 'exact' } });
    const body = { messages: [{ role: 'user', content: 'cache me on the cluster' }] };
    const first = await ask(a, key, body);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-rosetta-cache')).toBe('miss');
    const again = await ask(b, key, body);
    expect(again.headers.get('x-rosetta-cache')).toBe('hit');
    expect(((await again.json()) as { choices: unknown[] }).choices).toEqual(((await first.json()) as { choices: unknown[] }).choices);
  });

  it('never degraded: no Redis failure counted or logged by either replica', async () => {
    for (const gateway of [replicas.a, replicas.b]) {
      const text = await (await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).text();
      expect([metric(text, 'rosetta_rate_limit_degraded'), metric(text, 'rosetta_rate_limit_redis_failures')]).toEqual([0, 0]);
      // The health pipelines (every second) and the settlement pipelines would log here on CROSSSLOT.
      expect(gateway.output()).not.toMatch(/Redis unavailable|settlement failed|CROSSSLOT|slots allocation group/);
    }
  });
});

/**
 * Behind Sentinel, after a failover: the gateways follow the new master, and limits and budgets
 * are exact there — a failover costs at most a few seconds of the degraded policy, never a wrong
 * limit afterwards.
 */
describe('limits and budgets across replicas behind Sentinel, after a failover', () => {
  let sentinel: RedisSentinelTopology;
  let replicas: TwoReplicas;
  let db: { url: string; drop(): Promise<void> };
  const gateways: GatewayProcess[] = [];

  beforeAll(async () => {
    const [sim, topology, database] = await Promise.all([startSimulator(), startRedisSentinel(), createTestDatabase()]);
    sentinel = topology;
    db = database;
    const env = { DATABASE_URL: db.url, ...sentinel.env, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-operator-000000000000' };
    gateways.push(...(await Promise.all([startGateway(env), startGateway(env)])));
    replicas = { a: gateways[0]!, b: gateways[1]!, sim, db };
    await sentinel.failover();
    for (const gateway of gateways) await waitUntil('ready on the new master', async () => (await fetch(`${gateway.url}/readyz`)).status === 200);
  });

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop()));
    await (replicas?.sim as RunningSimulator | undefined)?.close();
    await sentinel?.stop();
    await db?.drop();
  });

  it('gives a Free key sending 130 concurrent requests over two replicas exactly 100', async () => {
    await freeKeyGetsExactly100(replicas);
  });

  it('never lets concurrent spending on two replicas pass a key budget', async () => {
    await keyBudgetHolds(replicas);
  });
});
