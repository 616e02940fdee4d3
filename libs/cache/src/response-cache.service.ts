import { Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, REDIS_CLIENT, ROSETTA_CONFIG, type AppLogger, type RedisClient, type RosettaConfig } from '@rosetta/platform';
import type { CachedAnswer } from './cached-answer';
import { MemoryResponseCacheStore, RedisResponseCacheStore, type ResponseCacheStore } from './response-cache-store';

/**
 * The exact response cache's store (ARCHITECTURE §9): answers by cache key, with the TTL of the
 * setting that stored them and a size cap per entry. A store that fails is a miss, never a failed
 * request: the cache only ever saves work.
 */
@Injectable()
export class ResponseCacheService {
  private readonly store: ResponseCacheStore;
  private readonly maxEntryBytes: number;
  private warned = false;

  constructor(
    @Inject(ROSETTA_CONFIG) config: RosettaConfig,
    @Inject(REDIS_CLIENT) redis: RedisClient | null,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {
    this.store = redis ? new RedisResponseCacheStore(redis) : new MemoryResponseCacheStore(config.responseCache.memoryBytes);
    this.maxEntryBytes = config.responseCache.maxEntryBytes;
  }

  async read(key: string): Promise<CachedAnswer | undefined> {
    try {
      const text = await this.store.get(key);
      return text === undefined ? undefined : (JSON.parse(text) as CachedAnswer);
    } catch (error) {
      this.unavailable(error);
      return undefined;
    }
  }

  /** Keeps the answer for `ttlS` seconds, unless it is larger than RESPONSE_CACHE_MAX_ENTRY. */
  async write(key: string, answer: CachedAnswer, ttlS: number): Promise<boolean> {
    const text = JSON.stringify(answer);
    if (Buffer.byteLength(text) > this.maxEntryBytes) return false;
    try {
      await this.store.set(key, text, ttlS);
      return true;
    } catch (error) {
      this.unavailable(error);
      return false;
    }
  }

  private unavailable(error: unknown): void {
    if (this.warned) return;
    this.warned = true;
    this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'response cache unavailable: answering without it');
  }
}
