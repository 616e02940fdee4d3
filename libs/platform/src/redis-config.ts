/**
 * Where the shared Redis is (ARCHITECTURE §9 "Past one machine"): one server by URL, a Redis
 * Cluster by its seed nodes, or a master found through Sentinel. At most one of the three may be
 * named, so a deployment never silently talks to a different Redis than its operator meant.
 */
import { ConfigError } from './config-error';

export interface RedisNodeAddress {
  host: string;
  port: number;
}

/** Credentials for the data nodes of a cluster or of a Sentinel-managed master (REDIS_URL carries its own). */
export interface RedisAuth {
  username?: string;
  password?: string;
}

export type RedisTopology =
  | { kind: 'url'; url: string }
  | { kind: 'cluster'; nodes: RedisNodeAddress[]; auth: RedisAuth }
  | { kind: 'sentinel'; sentinels: RedisNodeAddress[]; name: string; auth: RedisAuth; sentinelPassword?: string };

type Env = Record<string, string | undefined>;

const TOPOLOGY_VARIABLES = ['REDIS_URL', 'REDIS_CLUSTER_NODES', 'REDIS_SENTINELS'] as const;
const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
/** Sentinel reads the name as one word of its configuration. */
const SENTINEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function str(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** `host:port,host:port`; an IPv6 address is written in brackets (`[::1]:7000`). */
export function parseRedisNodes(variable: string, raw: string): RedisNodeAddress[] {
  return raw.split(',').map((entry) => {
    const text = entry.trim();
    const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+):(\d{1,5})$/.exec(text);
    const host = match?.[1]?.replace(/^\[(.*)\]$/, '$1');
    const port = Number(match?.[2]);
    if (!match || !host || !(HOSTNAME.test(host) || host.includes(':'))) {
      throw new ConfigError(variable, `each entry must be host:port (comma-separated, [ipv6]:port for IPv6), got '${text}'`);
    }
    if (port < 1 || port > 65535) throw new ConfigError(variable, `port must be between 1 and 65535, got ${port} in '${text}'`);
    return { host, port };
  });
}

function redisUrl(raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError('REDIS_URL', 'must be a valid URL');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new ConfigError('REDIS_URL', `must use redis: or rediss:, got '${parsed.protocol}'`);
  }
  return raw.replace(/\/+$/, '');
}

/** The Redis the gateway shares with its replicas, or undefined when none is configured. */
export function redisTopologyFromEnv(env: Env): RedisTopology | undefined {
  const named = TOPOLOGY_VARIABLES.filter((name) => str(env, name) !== undefined);
  if (named.length > 1) {
    throw new ConfigError(named[1]!, `set only one of ${TOPOLOGY_VARIABLES.join(', ')}; got ${named.join(' and ')}`);
  }
  const name = str(env, 'REDIS_SENTINEL_NAME');
  if (name !== undefined && named[0] !== 'REDIS_SENTINELS') throw new ConfigError('REDIS_SENTINEL_NAME', 'needs REDIS_SENTINELS (the sentinels to ask for that master)');
  const auth: RedisAuth = { username: str(env, 'REDIS_USERNAME'), password: str(env, 'REDIS_PASSWORD') };
  const sentinelPassword = str(env, 'REDIS_SENTINEL_PASSWORD');
  if (named[0] !== 'REDIS_CLUSTER_NODES' && named[0] !== 'REDIS_SENTINELS') {
    for (const [variable, value] of [['REDIS_USERNAME', auth.username], ['REDIS_PASSWORD', auth.password], ['REDIS_SENTINEL_PASSWORD', sentinelPassword]] as const) {
      if (value !== undefined) throw new ConfigError(variable, 'applies to REDIS_CLUSTER_NODES or REDIS_SENTINELS only (put REDIS_URL\'s credentials in the URL)');
    }
  }
  switch (named[0]) {
    case undefined:
      return undefined;
    case 'REDIS_URL':
      return { kind: 'url', url: redisUrl(str(env, 'REDIS_URL')!) };
    case 'REDIS_CLUSTER_NODES':
      if (sentinelPassword !== undefined) throw new ConfigError('REDIS_SENTINEL_PASSWORD', 'applies to REDIS_SENTINELS only');
      return { kind: 'cluster', nodes: parseRedisNodes('REDIS_CLUSTER_NODES', str(env, 'REDIS_CLUSTER_NODES')!), auth };
    case 'REDIS_SENTINELS': {
      const sentinels = parseRedisNodes('REDIS_SENTINELS', str(env, 'REDIS_SENTINELS')!);
      if (name === undefined) throw new ConfigError('REDIS_SENTINEL_NAME', 'is required with REDIS_SENTINELS: the name the sentinels monitor the master under');
      if (!SENTINEL_NAME.test(name)) throw new ConfigError('REDIS_SENTINEL_NAME', `must be letters, digits, dot, dash or underscore (at most 64), got '${name}'`);
      return { kind: 'sentinel', sentinels, name, auth, ...(sentinelPassword === undefined ? {} : { sentinelPassword }) };
    }
  }
}

/** How the topology is named in the gateway's logs: where it is, never its credentials. */
export function describeRedisTopology(topology: RedisTopology): string {
  switch (topology.kind) {
    case 'url': {
      const url = new URL(topology.url);
      return `${url.protocol}//${url.host}`;
    }
    case 'cluster':
      return `cluster of ${topology.nodes.map((n) => `${n.host}:${n.port}`).join(',')}`;
    case 'sentinel':
      return `sentinel master '${topology.name}' via ${topology.sentinels.map((n) => `${n.host}:${n.port}`).join(',')}`;
  }
}
