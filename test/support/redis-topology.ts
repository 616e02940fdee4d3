import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HOST, READY_WITHIN_MS, SERVER_ARGS, ServerGroup, answersPing, freePort, redisCommand, waitUntil, type RedisAddress } from './redis-servers';

export type { RedisAddress };

/**
 * Real Redis topologies on loopback for the suites that need more than the machine's one Redis:
 * a three-master Redis Cluster, and a master with a replica watched by three Sentinels. Every
 * server is a child process on free ports in its own temp directory; `stop()` kills them and
 * removes the directory, and a topology that fails half-way through starting does so itself.
 */

export interface RedisClusterTopology {
  nodes: RedisAddress[];
  /** What the gateway reads: `REDIS_CLUSTER_NODES`. */
  env: { REDIS_CLUSTER_NODES: string };
  stop(): Promise<void>;
}

export interface RedisSentinelTopology {
  name: string;
  sentinels: RedisAddress[];
  /** What the gateway reads: `REDIS_SENTINELS` and `REDIS_SENTINEL_NAME`. */
  env: { REDIS_SENTINELS: string; REDIS_SENTINEL_NAME: string };
  /** The master every sentinel names now. */
  master(): Promise<RedisAddress>;
  /**
   * Forces a failover (`SENTINEL FAILOVER`) and resolves with the new master once every sentinel
   * names it, it answers as master, and the old master has become its replica.
   */
  failover(): Promise<RedisAddress>;
  /**
   * Kills the master with SIGKILL, as a lost node, and resolves with the replica the sentinels
   * promoted on their own once every sentinel names it and it answers as master.
   */
  killMaster(): Promise<RedisAddress>;
  stop(): Promise<void>;
}

/** Three masters, no replicas, every slot assigned; resolves once every node says cluster_state:ok. */
export async function startRedisCluster(masters = 3): Promise<RedisClusterTopology> {
  const group = await ServerGroup.create('redis-cluster');
  return group.guard(async () => {
    const taken = new Set<number>();
    const nodes: RedisAddress[] = [];
    for (let i = 0; i < masters; i++) {
      const port = await freePort(taken);
      group.spawn(['--port', String(port), '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '2000', ...SERVER_ARGS]);
      nodes.push({ host: HOST, port });
    }
    for (const node of nodes) await waitUntil(`redis cluster node ${node.port} answering`, () => answersPing(node));
    await new Promise<void>((resolve, reject) => {
      const args = ['--cluster', 'create', ...nodes.map((n) => `${n.host}:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'];
      execFile('redis-cli', args, { timeout: READY_WITHIN_MS }, (error, stdout, stderr) => (error ? reject(new Error(`redis-cli --cluster create failed: ${stderr || stdout}`)) : resolve()));
    });
    for (const node of nodes) {
      await waitUntil(`cluster_state:ok on ${node.port}`, async () => String(await redisCommand(node, 'CLUSTER', 'INFO')).includes('cluster_state:ok'));
    }
    return { nodes, env: { REDIS_CLUSTER_NODES: nodes.map((n) => `${n.host}:${n.port}`).join(',') }, stop: () => group.stop() };
  });
}


/** A SENTINEL reply's flat `[field, value, ...]` list as an object. */
function fields(reply: unknown): Record<string, string> {
  const list = Array.isArray(reply) ? (reply as unknown[]).map(String) : [];
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) out[list[i]!] = list[i + 1]!;
  return out;
}

async function masterNamedBy(sentinel: RedisAddress, name: string): Promise<RedisAddress | undefined> {
  const reply = await redisCommand(sentinel, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name);
  if (!Array.isArray(reply) || reply.length < 2) return undefined;
  return { host: String(reply[0]), port: Number(reply[1]) };
}

/** Every sentinel names `master`, and `master` answers as a master. */
async function settledOn(sentinels: RedisAddress[], name: string, master: RedisAddress): Promise<boolean> {
  for (const sentinel of sentinels) {
    const named = await masterNamedBy(sentinel, name);
    if (named?.port !== master.port) return false;
  }
  return String(await redisCommand(master, 'INFO', 'replication')).includes('role:master');
}

/** A sentinel could fail over now: quorum reachable, and a replica in sync it would promote. */
async function canFailOver(sentinel: RedisAddress, name: string): Promise<boolean> {
  // An error (NOQUORUM) until enough sentinels see each other.
  await redisCommand(sentinel, 'SENTINEL', 'CKQUORUM', name);
  const replicas = (await redisCommand(sentinel, 'SENTINEL', 'REPLICAS', name)) as unknown[];
  return replicas.map(fields).some((r) => r['flags'] === 'slave' && r['master-link-status'] === 'ok');
}

function sentinelConf(port: number, name: string, master: RedisAddress): string {
  return [
    `port ${port}`,
    `bind ${HOST}`,
    `sentinel monitor ${name} ${master.host} ${master.port} 2`,
    // Quick enough for a test to see a lost master replaced; a real deployment keeps the defaults.
    `sentinel down-after-milliseconds ${name} 1000`,
    `sentinel failover-timeout ${name} 5000`,
    `sentinel parallel-syncs ${name} 1`,
    '',
  ].join('\n');
}

/** A master, one replica of it, and three sentinels (quorum 2) that know both and each other. */
export async function startRedisSentinel(name = 'rosetta-test'): Promise<RedisSentinelTopology> {
  const group = await ServerGroup.create('redis-sentinel');
  return group.guard(async () => {
    const taken = new Set<number>();
    const master = { host: HOST, port: await freePort(taken) };
    const replica = { host: HOST, port: await freePort(taken) };
    const servers = new Map([
      [master.port, group.spawn(['--port', String(master.port), ...SERVER_ARGS])],
      [replica.port, group.spawn(['--port', String(replica.port), '--replicaof', master.host, String(master.port), ...SERVER_ARGS])],
    ]);
    const sentinels: RedisAddress[] = [];
    for (let i = 0; i < 3; i++) {
      const port = await freePort(taken);
      // Sentinel rewrites its file as it learns the topology, so each has its own.
      const conf = join(group.dir, `sentinel-${port}.conf`);
      await writeFile(conf, sentinelConf(port, name, master));
      group.spawn([conf, '--sentinel']);
      sentinels.push({ host: HOST, port });
    }
    for (const address of [master, replica, ...sentinels]) await waitUntil(`redis ${address.port} answering`, () => answersPing(address));
    for (const sentinel of sentinels) await waitUntil(`sentinel ${sentinel.port} ready to fail over`, () => canFailOver(sentinel, name));
    const current = async (): Promise<RedisAddress> => {
      const named = await masterNamedBy(sentinels[0]!, name);
      if (!named) throw new Error(`sentinel ${sentinels[0]!.port} names no master for ${name}`);
      return named;
    };
    return {
      name,
      sentinels,
      env: { REDIS_SENTINELS: sentinels.map((s) => `${s.host}:${s.port}`).join(','), REDIS_SENTINEL_NAME: name },
      master: current,
      failover: async () => {
        const before = await current();
        for (const sentinel of sentinels) await waitUntil(`sentinel ${sentinel.port} ready to fail over`, () => canFailOver(sentinel, name));
        await redisCommand(sentinels[0]!, 'SENTINEL', 'FAILOVER', name);
        let after: RedisAddress | undefined;
        await waitUntil(`a new master for ${name}`, async () => {
          after = await masterNamedBy(sentinels[0]!, name);
          return after !== undefined && after.port !== before.port && (await settledOn(sentinels, name, after));
        });
        await waitUntil(`the old master ${before.port} replicating`, async () => String(await redisCommand(before, 'INFO', 'replication')).includes('role:slave'));
        return after!;
      },
      killMaster: async () => {
        const before = await current();
        for (const sentinel of sentinels) await waitUntil(`sentinel ${sentinel.port} ready to fail over`, () => canFailOver(sentinel, name));
        servers.get(before.port)!.kill('SIGKILL');
        let after: RedisAddress | undefined;
        await waitUntil(`a master for ${name} replacing the killed ${before.port}`, async () => {
          after = await masterNamedBy(sentinels[0]!, name);
          return after !== undefined && after.port !== before.port && (await settledOn(sentinels, name, after));
        });
        return after!;
      },
      stop: () => group.stop(),
    };
  });
}
