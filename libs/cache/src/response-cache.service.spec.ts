import type { AppLogger, RedisClient, RosettaConfig } from '@rosetta/platform';
import type { CachedAnswer } from './cached-answer';
import { ResponseCacheService } from './response-cache.service';

const answer = (text: string): CachedAnswer => ({
  response: { id: 'chatcmpl-1', model: 'rosetta/gpt-4o-mini', created: 1, content: [{ type: 'text', text }], finishReason: { unified: 'stop' } },
  model: 'rosetta/gpt-4o-mini',
  provider: 'openai',
  protocol: 'openai',
  costUsd: 0.0001,
  storedAt: 1,
});

function service(redis: RedisClient | null = null) {
  const warnings: unknown[] = [];
  const config = { responseCache: { maxEntryBytes: 400, memoryBytes: 10_000, embeddingModel: 'rosetta/text-embedding-3-small' } } as RosettaConfig;
  const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as AppLogger;
  return { cache: new ResponseCacheService(config, redis, logger), warnings };
}

describe('ResponseCacheService', () => {
  it('keeps an answer within RESPONSE_CACHE_MAX_ENTRY and hands back a fresh copy each time', async () => {
    const { cache } = service();
    expect(await cache.write('k', answer('short'), 60)).toBe(true);
    const first = await cache.read('k');
    expect(first).toEqual(answer('short'));
    first!.response.id = 'changed';
    expect((await cache.read('k'))!.response.id).toBe('chatcmpl-1');
  });

  it('answers but never keeps an answer larger than the cap', async () => {
    const { cache } = service();
    expect(await cache.write('big', answer('x'.repeat(500)), 60)).toBe(false);
    expect(await cache.read('big')).toBeUndefined();
  });

  it('is a miss, said once in the log, when its store fails', async () => {
    const failing = { get: () => Promise.reject(new Error('down')), set: () => Promise.reject(new Error('down')) } as unknown as RedisClient;
    const { cache, warnings } = service(failing);
    expect(await cache.read('k')).toBeUndefined();
    expect(await cache.write('k', answer('short'), 60)).toBe(false);
    expect(warnings).toHaveLength(1);
  });
});
