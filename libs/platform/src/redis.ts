import Redis, { Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { AppLogger } from './logger';
import { describeRedisTopology, type RedisTopology } from './redis-config';

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/**
 * The shared client: one server or a Sentinel-managed master (`Redis`), or a Redis Cluster
 * (`Cluster`). Both carry the same command set, scripts (`defineCommand`), pipelines and MULTI,
 * so callers use it without knowing which; what differs is that on a cluster every script,
 * pipeline and MULTI must keep its keys in one hash slot (docs/decisions/0026).
 */
export type RedisClient = Redis | Cluster;

/**
 * Commands fail fast while Redis is down (one retry, no unbounded wait), so a caller can apply
 * its documented fallback instead of hanging. The same settings hold for every topology.
 */
const FAIL_FAST = {
  maxRetriesPerRequest: 1,
  connectTimeout: 2_000,
  commandTimeout: 1_000,
} satisfies RedisOptions;

/** Reconnection backs off to at most two seconds, so a returning Redis is found within that. */
const backoff = (times: number): number => Math.min(times * 200, 2_000);

/**
 * A write that reached a demoted master (a replica now) did nothing: reconnect — which asks the
 * sentinels for the new master — and send it again there.
 */
const toNewMaster = (error: Error): 2 | false => (error.message.startsWith('READONLY') ? 2 : false);

function sentinelOptions(topology: Extract<RedisTopology, { kind: 'sentinel' }>): RedisOptions {
  return {
    ...FAIL_FAST,
    sentinels: topology.sentinels,
    name: topology.name,
    username: topology.auth.username,
    password: topology.auth.password,
    sentinelPassword: topology.sentinelPassword,
    enableOfflineQueue: true,
    retryStrategy: backoff,
    // No sentinel answering: try them all again soon rather than give up.
    sentinelRetryStrategy: backoff,
    // No failoverDetector: its reconnect on +switch-master can land while a reconnection is
    // resolving the master, and ioredis then ends the client for good ("Connection is closed.",
    // seen after a SIGKILLed master). A lost master closes the socket, and a demoted one answers
    // writes READONLY: either way the client asks the sentinels again.
    reconnectOnError: toNewMaster,
  };
}

function clusterOptions(topology: Extract<RedisTopology, { kind: 'cluster' }>): ClusterOptions {
  return {
    redisOptions: { ...FAIL_FAST, username: topology.auth.username, password: topology.auth.password },
    // Commands sent before the first connection wait for it; once every node is gone, each
    // reconnection attempt (at most two seconds apart) fails what has queued since the last one,
    // so a caller gets an error and applies its fallback instead of waiting for the cluster.
    enableOfflineQueue: true,
    clusterRetryStrategy(this: Cluster, times: number): number {
      (this as unknown as OfflineQueue).flushQueue(new Error('Redis Cluster unavailable: no node answers'));
      return backoff(times);
    },
    // A slot moving to a promoted replica is followed within a few hundred milliseconds.
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    slotsRefreshTimeout: 2_000,
  };
}

/** The Cluster's own way to fail its queued commands (ioredis 5; not in its typings). */
interface OfflineQueue {
  flushQueue(error: Error): void;
}

/** The client for the configured topology; one per process, shared by every caller. */
export function createRedisClient(topology: RedisTopology, logger: AppLogger): RedisClient {
  const client: RedisClient =
    topology.kind === 'cluster'
      ? new Cluster(topology.nodes, clusterOptions(topology))
      : topology.kind === 'sentinel'
        ? new Redis(sentinelOptions(topology))
        : new Redis(topology.url, { ...FAIL_FAST, enableOfflineQueue: true, retryStrategy: backoff });
  const where = describeRedisTopology(topology);
  let down = false;
  client.on('error', (error: Error) => {
    if (!down) logger.warn({ err: error.message, redis: where }, 'redis unavailable');
    down = true;
  });
  client.on('ready', () => {
    if (down) logger.info({ redis: where }, 'redis reconnected');
    down = false;
  });
  return client;
}
