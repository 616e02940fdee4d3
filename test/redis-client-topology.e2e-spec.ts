import { createLogger, createRedisClient, loadConfig, type RedisClient } from '@rosetta/platform';
import { redisCommand, waitUntil } from './support/redis-servers';
import { startRedisCluster, startRedisSentinel, type RedisClusterTopology, type RedisSentinelTopology } from './support/redis-topology';

const logger = createLogger('silent');

/** The gateway's own client (createRedisClient) on a real cluster and a real Sentinel failover. */
describe('the gateway\'s Redis client on a cluster and behind Sentinel', () => {
  describe('REDIS_CLUSTER_NODES', () => {
    let cluster: RedisClusterTopology;
    let client: RedisClient;

    beforeAll(async () => {
      cluster = await startRedisCluster();
      client = createRedisClient(loadConfig(cluster.env).redis!, logger);
    });

    afterAll(async () => {
      client?.disconnect();
      await cluster?.stop();
    });

    it('is a cluster client that answers for keys in every slot', async () => {
      const keys = Array.from({ length: 30 }, (_, i) => `client:${i}`);
      for (const key of keys) await client.set(key, key);
      expect(await Promise.all(keys.map((key) => client.get(key)))).toEqual(keys);
      expect(String(await client.cluster('INFO'))).toContain('cluster_known_nodes:3');
    });

    it('runs a defined script whose keys share a hash tag, and refuses one whose keys do not', async () => {
      client.defineCommand('topologyPair', { numberOfKeys: 2, lua: "redis.call('INCR', KEYS[1]); return redis.call('INCR', KEYS[2])" });
      const pair = client as RedisClient & { topologyPair(a: string, b: string): Promise<number> };
      await expect(pair.topologyPair('client:{k:1}:a', 'client:{k:1}:b')).resolves.toBe(1);
      await expect(pair.topologyPair('client:{k:1}:a', 'client:{k:2}:b')).rejects.toThrow(/CROSSSLOT|different slots/i);
    });

    it('sends a pipeline within one slot, and refuses one across slots before sending it', async () => {
      const within = await client.pipeline().set('client:{t:1}:x', '1').get('client:{t:1}:x').exec();
      expect(within).toEqual([[null, 'OK'], [null, '1']]);
      await expect(client.pipeline().set('client:{t:1}:x', '1').set('client:{t:2}:x', '1').exec()).rejects.toThrow(/same slots allocation group/);
    });

    // Last: it stops the cluster. A command must fail (the caller's fallback then applies), not
    // wait in the client's queue for a cluster that is not coming back.
    it('fails a command once every node is gone, rather than queueing it', async () => {
      await cluster.stop();
      await expect(client.get('client:{k:1}:a')).rejects.toThrow();
      await expect(client.set('client:{k:1}:a', '2')).rejects.toThrow();
    });
  });

  describe('REDIS_SENTINELS and REDIS_SENTINEL_NAME', () => {
    let sentinel: RedisSentinelTopology;
    let client: RedisClient;

    beforeAll(async () => {
      sentinel = await startRedisSentinel();
      client = createRedisClient(loadConfig(sentinel.env).redis!, logger);
    });

    afterAll(async () => {
      client?.disconnect();
      await sentinel?.stop();
    });

    it('writes to the new master after a failover, without a failed command', async () => {
      await client.set('client:before', '1');
      const after = await sentinel.failover();
      // The first write after the failover lands on the new master: the client either reconnected
      // on +switch-master already, or its write met READONLY on the demoted master and was resent.
      await client.set('client:after', '2');
      expect(await redisCommand(after, 'GET', 'client:after')).toBe('2');
      expect(await client.incr('client:counter')).toBe(1);
      expect(await redisCommand(after, 'GET', 'client:counter')).toBe('1');
    });

    it('follows a second failover back to the first master', async () => {
      const first = await sentinel.master();
      const second = await sentinel.failover();
      expect(second.port).not.toBe(first.port);
      await client.set('client:again', '3');
      expect(await redisCommand(second, 'GET', 'client:again')).toBe('3');
    });

    it('finds the promoted replica when the master is lost with SIGKILL', async () => {
      await client.set('client:replicated', '4');
      // WAIT within the client's one-second command time-out; the replica may still be resyncing after the failovers above.
      await waitUntil('the write replicated', async () => (await client.wait(1, 500)) === 1);
      const promoted = await sentinel.killMaster();
      // Writes fail (fast) while no master is known; the first one that succeeds is on the replica promoted.
      await waitUntil('a write through the client', async () => (await client.set('client:survivor', '5')) === 'OK');
      expect(await redisCommand(promoted, 'GET', 'client:survivor')).toBe('5');
      expect(await client.get('client:replicated')).toBe('4');
    });
  });
});
