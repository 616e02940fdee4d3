import { ConfigError, loadConfig } from './config';
import { describeRedisTopology, redisTopologyFromEnv } from './redis-config';

/** The error a bad environment stops the process with. */
function refusal(env: Record<string, string>): ConfigError {
  try {
    redisTopologyFromEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('redisTopologyFromEnv', () => {
  it('is undefined without any Redis variable, as a single replica runs', () => {
    expect(redisTopologyFromEnv({})).toBeUndefined();
    expect(loadConfig({}).redis).toBeUndefined();
  });

  it('reads REDIS_URL as one server, as before', () => {
    expect(redisTopologyFromEnv({ REDIS_URL: 'redis://:secret@cache:6379/' })).toEqual({ kind: 'url', url: 'redis://:secret@cache:6379' });
    expect(refusal({ REDIS_URL: 'http://cache:6379' }).message).toBe("REDIS_URL: must use redis: or rediss:, got 'http:'");
  });

  it('reads REDIS_CLUSTER_NODES as seed nodes, IPv6 in brackets, with the data nodes\' credentials', () => {
    expect(redisTopologyFromEnv({ REDIS_CLUSTER_NODES: ' redis-0.internal:7000, 10.0.0.2:7001,[::1]:7002', REDIS_PASSWORD: 'pw' })).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'redis-0.internal', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      auth: { username: undefined, password: 'pw' },
    });
  });

  it('reads REDIS_SENTINELS with the master\'s name and the sentinels\' own password', () => {
    expect(redisTopologyFromEnv({ REDIS_SENTINELS: 's0:26379,s1:26379,s2:26379', REDIS_SENTINEL_NAME: 'rosetta-main', REDIS_USERNAME: 'gw', REDIS_PASSWORD: 'pw', REDIS_SENTINEL_PASSWORD: 'spw' })).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's0', port: 26379 },
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      name: 'rosetta-main',
      auth: { username: 'gw', password: 'pw' },
      sentinelPassword: 'spw',
    });
  });

  it('refuses more than one topology, naming them', () => {
    const error = refusal({ REDIS_URL: 'redis://cache:6379', REDIS_CLUSTER_NODES: 'a:1' });
    expect(error.variable).toBe('REDIS_CLUSTER_NODES');
    expect(error.message).toBe('REDIS_CLUSTER_NODES: set only one of REDIS_URL, REDIS_CLUSTER_NODES, REDIS_SENTINELS; got REDIS_URL and REDIS_CLUSTER_NODES');
    expect(refusal({ REDIS_CLUSTER_NODES: 'a:1', REDIS_SENTINELS: 'b:2', REDIS_SENTINEL_NAME: 'm' }).variable).toBe('REDIS_SENTINELS');
  });

  it('refuses node lists that are not host:port', () => {
    expect(refusal({ REDIS_CLUSTER_NODES: 'a:7000,b' }).message).toBe("REDIS_CLUSTER_NODES: each entry must be host:port (comma-separated, [ipv6]:port for IPv6), got 'b'");
    expect(refusal({ REDIS_CLUSTER_NODES: 'a:7000,,b:7001' }).message).toMatch(/got ''$/);
    expect(refusal({ REDIS_CLUSTER_NODES: 'redis://a:7000' }).variable).toBe('REDIS_CLUSTER_NODES');
    expect(refusal({ REDIS_CLUSTER_NODES: 'bad_host!:7000' }).variable).toBe('REDIS_CLUSTER_NODES');
    expect(refusal({ REDIS_SENTINELS: 'a:70000', REDIS_SENTINEL_NAME: 'm' }).message).toBe("REDIS_SENTINELS: port must be between 1 and 65535, got 70000 in 'a:70000'");
    expect(refusal({ REDIS_SENTINELS: 'a:0', REDIS_SENTINEL_NAME: 'm' }).variable).toBe('REDIS_SENTINELS');
  });

  it('needs REDIS_SENTINEL_NAME with REDIS_SENTINELS, and only there, as one word', () => {
    expect(refusal({ REDIS_SENTINELS: 'a:26379' }).message).toBe('REDIS_SENTINEL_NAME: is required with REDIS_SENTINELS: the name the sentinels monitor the master under');
    expect(refusal({ REDIS_URL: 'redis://cache:6379', REDIS_SENTINEL_NAME: 'm' }).message).toBe('REDIS_SENTINEL_NAME: needs REDIS_SENTINELS (the sentinels to ask for that master)');
    expect(refusal({ REDIS_SENTINELS: 'a:26379', REDIS_SENTINEL_NAME: 'my master' }).message).toBe("REDIS_SENTINEL_NAME: must be letters, digits, dot, dash or underscore (at most 64), got 'my master'");
  });

  it('refuses credentials variables where they would be ignored', () => {
    expect(refusal({ REDIS_URL: 'redis://cache:6379', REDIS_PASSWORD: 'pw' }).message).toBe("REDIS_PASSWORD: applies to REDIS_CLUSTER_NODES or REDIS_SENTINELS only (put REDIS_URL's credentials in the URL)");
    expect(refusal({ REDIS_USERNAME: 'gw' }).variable).toBe('REDIS_USERNAME');
    expect(refusal({ REDIS_CLUSTER_NODES: 'a:1', REDIS_SENTINEL_PASSWORD: 'spw' }).message).toBe('REDIS_SENTINEL_PASSWORD: applies to REDIS_SENTINELS only');
  });

  it('stops loadConfig with the same message', () => {
    expect(() => loadConfig({ REDIS_SENTINELS: 'a:26379' })).toThrow('REDIS_SENTINEL_NAME: is required with REDIS_SENTINELS');
  });
});

describe('describeRedisTopology', () => {
  it('names where Redis is without its credentials', () => {
    expect(describeRedisTopology({ kind: 'url', url: 'rediss://user:secret@cache:6380/2' })).toBe('rediss://cache:6380');
    expect(describeRedisTopology({ kind: 'cluster', nodes: [{ host: 'a', port: 1 }, { host: 'b', port: 2 }], auth: { password: 'pw' } })).toBe('cluster of a:1,b:2');
    expect(describeRedisTopology({ kind: 'sentinel', sentinels: [{ host: 's', port: 26379 }], name: 'm', auth: {} })).toBe("sentinel master 'm' via s:26379");
  });
});
