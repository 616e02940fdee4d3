import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';

/** The real Redis the unit suite runs against. */
export const TEST_REDIS_URL = process.env.RATE_LIMIT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other run (or concurrent suite) shares. */
export function uniquePrefix(): string {
  return `rosetta:test:rl:${process.pid}:${randomUUID().slice(0, 8)}:`;
}

/** A client like the gateway's shared one: fails fast rather than queueing forever. */
export function connect(url: string = TEST_REDIS_URL, overrides: Record<string, unknown> = {}): Redis {
  const client = new Redis(url, {
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: 1_000,
    retryStrategy: (times) => Math.min(times * 100, 500),
    disconnectTimeout: 100,
    ...overrides,
  });
  client.on('error', () => undefined);
  return client;
}

/** Deletes every key under the prefix. */
export async function removeKeys(client: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await client.del(...keys);
  } while (cursor !== '0');
}

export async function countKeys(client: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let count = 0;
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    count += keys.length;
  } while (cursor !== '0');
  return count;
}
