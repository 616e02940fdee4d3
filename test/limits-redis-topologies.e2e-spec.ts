import Redis from 'ioredis';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { endUserBudgetHolds } from './support/attribution-checks';
import { ask, freeKeyGetsExactly100, keyBudgetHolds, teamBudgetHolds, tokenLimitHolds, type TwoReplicas } from './support/exactness-checks';
import { createKey, startGateway, TEST_ADMIN_TOKEN, type GatewayProcess } from './support/gateway-process';
import { waitUntil } from './support/redis-servers';
import { startRedisCluster, startRedisSentinel } from './support/redis-topology';
import { createTestDatabase } from './support/services';

/** A gauge or counter's value in a /metrics text (NaN when absent). */
function metric(text: string, series: string): number {
  return Number(text.split('\n').find((line) => line.startsWith(`${series} `))?.slice(series.length + 1) ?? NaN);
}

/**
 * Two replicas on one database and the Redis topology `start` brings up, with a simulator, for
 * the describe block it is called in; `ready` runs once they are up (a failover, for Sentinel).
 */
function twoReplicasOn<T extends { env: Record<string, string>; stop(): Promise<void> }>(
  start: () => Promise<T>,
  ready?: (topology: T, gateways: GatewayProcess[]) => Promise<void>,
): { replicas: TwoReplicas; topology: T } {
  const state = {} as { replicas: TwoReplicas; topology: T };
  let topology: T | undefined;
  let db: { url: string; drop(): Promise<void> } | undefined;
  const gateways: GatewayProcess[] = [];

  beforeAll(async () => {
    const [sim, started, database] = await Promise.all([startSimulator(), start(), createTestDatabase()]);
    topology = started;
    state.topology = started;
    db = database;
    const env = { DATABASE_URL: database.url, ...started.env, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-operator-000000000000' };
    gateways.push(...(await Promise.all([startGateway(env), startGateway(env)])));
    state.replicas = { a: gateways[0]!, b: gateways[1]!, sim, db: database };
    await ready?.(started, gateways);
  });

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop()));
    await (state.replicas?.sim as RunningSimulator | undefined)?.close();
    await topology?.stop();
    await db?.drop();
  });
  return state;
}

/**
 * The exactness checks of the one-Redis suites (limits-usage, budgets), on two replicas sharing a
 * three-master Redis Cluster: every admission's keys share one hash tag (docs/decisions/0026), so
 * the admission script, its settlement pipelines and the health pipelines never cross slots, and
 * the limiter never falls back to each replica's own counters.
 */
describe('limits and budgets across replicas on a Redis Cluster', () => {
  const on = twoReplicasOn(startRedisCluster);

  it('gives a Free key sending 130 concurrent requests over two replicas exactly 100', async () => {
    await freeKeyGetsExactly100(on.replicas);
  });

  it('holds a token limit over two replicas, and gives unused reservations back', async () => {
    await tokenLimitHolds(on.replicas);
  });

  it('never lets concurrent spending on two replicas pass a key budget', async () => {
    await keyBudgetHolds(on.replicas);
  });

  it('holds two keys of one team to the team budget', async () => {
    await teamBudgetHolds(on.replicas);
  });

  it("holds each end user of a key to its end-user budget: the end user's counter shares its key's slot (decision 0033)", async () => {
    const nodes = on.topology.nodes.map(({ host, port }) => ({ host, port }));
    await endUserBudgetHolds(on.replicas, 0.0003, () => new Redis.Cluster(nodes));
  });

  it('serves a response cached by one replica from the other', async () => {
    const { a, b } = on.replicas;
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
    for (const gateway of [on.replicas.a, on.replicas.b]) {
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
  const on = twoReplicasOn(startRedisSentinel, async (sentinel, gateways) => {
    await sentinel.failover();
    for (const gateway of gateways) await waitUntil('ready on the new master', async () => (await fetch(`${gateway.url}/readyz`)).status === 200);
  });

  it('gives a Free key sending 130 concurrent requests over two replicas exactly 100', async () => {
    await freeKeyGetsExactly100(on.replicas);
  });

  it('never lets concurrent spending on two replicas pass a key budget', async () => {
    await keyBudgetHolds(on.replicas);
  });
});
