import Redis from 'ioredis';
import type { AppLogger } from './logger';

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');
export type RedisClient = Redis;

/**
 * One shared connection. Commands fail fast while Redis is down (no unbounded offline queue), so a
 * caller can apply its documented fallback instead of hanging.
 */
export function createRedisClient(url: string, logger: AppLogger): Redis {
  const client = new Redis(url, {
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: 1_000,
    enableOfflineQueue: true,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  let down = false;
  client.on('error', (error: Error) => {
    if (!down) logger.warn({ err: error.message }, 'redis unavailable');
    down = true;
  });
  client.on('ready', () => {
    if (down) logger.info('redis reconnected');
    down = false;
  });
  return client;
}
