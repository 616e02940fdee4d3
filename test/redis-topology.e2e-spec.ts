import Redis, { Cluster } from 'ioredis';
import { redisCommand } from './support/redis-servers';
import { startRedisCluster, startRedisSentinel, type RedisClusterTopology, type RedisSentinelTopology } from './support/redis-topology';

/** The loopback topologies the cluster and failover suites stand on are what they claim to be. */
describe('loopback Redis topologies (test support)', () => {
  describe('a three-master cluster', () => {
    let cluster: RedisClusterTopology;
    let client: Cluster;

    beforeAll(async () => {
      cluster = await startRedisCluster();
      client = new Cluster(cluster.nodes);
    });

    afterAll(async () => {
      client?.disconnect();
      await cluster?.stop();
    });

    it('spreads the slots over three masters and answers for keys on each', async () => {
      const slots = (await client.cluster('SLOTS')).map(([from, to, master]) => ({ from, to, port: master![1] }));
      const owners = new Set(slots.map((range) => range.port));
      expect([...owners].sort()).toEqual(cluster.nodes.map((n) => n.port).sort());
      // One key per master: the first key whose slot each master owns.
      const keys = new Map<number, string>();
      for (let i = 0; keys.size < 3; i++) {
        const key = `topology:${i}`;
        const slot = Number(await client.cluster('KEYSLOT', key));
        const owner = slots.find((range) => slot >= range.from && slot <= range.to)!.port;
        if (!keys.has(owner)) keys.set(owner, key);
      }
      for (const [owner, key] of keys) await client.set(key, String(owner));
      for (const [owner, key] of keys) {
        expect(await client.get(key)).toBe(String(owner));
        // Stored on the master that owns the slot, not forwarded somewhere else.
        expect(await redisCommand({ host: '127.0.0.1', port: owner }, 'GET', key)).toBe(String(owner));
      }
    });

    it('refuses a script over two slots and runs one over a hash tag', async () => {
      const script = "redis.call('SET', KEYS[1], ARGV[1]); redis.call('SET', KEYS[2], ARGV[1]); return 1";
      await expect(client.eval(script, 2, 'topology:{a}', 'topology:{b}', 'x')).rejects.toThrow(/CROSSSLOT|different slots/i);
      await expect(client.eval(script, 2, 'topology:{a}:1', 'topology:{a}:2', 'x')).resolves.toBe(1);
    });
  });

  describe('a master and a replica behind three sentinels', () => {
    let sentinel: RedisSentinelTopology;
    let client: Redis;

    beforeAll(async () => {
      sentinel = await startRedisSentinel();
      client = new Redis({ sentinels: sentinel.sentinels, name: sentinel.name });
    });

    afterAll(async () => {
      client?.disconnect();
      await sentinel?.stop();
    });

    it('moves the master on a forced failover, with the data the replica had', async () => {
      await client.set('topology:before', 'kept');
      // Replicated before the failover, so the promoted replica has it.
      expect(await client.wait(1, 5_000)).toBe(1);
      const before = await sentinel.master();
      const after = await sentinel.failover();
      expect(after.port).not.toBe(before.port);
      expect(await sentinel.master()).toEqual(after);
      expect(await redisCommand(after, 'GET', 'topology:before')).toBe('kept');
      expect(String(await redisCommand(before, 'INFO', 'replication'))).toContain('role:slave');
    });
  });
});
