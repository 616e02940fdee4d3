import type { RedisClient } from '@rosetta/platform';

/**
 * Where cached answers live: Redis with REDIS_URL (shared by every replica), a bounded map in
 * process without it. Entries are JSON text, so every hit decodes a fresh copy the request may
 * change (its cost, its id) without touching the stored one.
 */
export interface ResponseCacheStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, text: string, ttlS: number): Promise<void>;
}

const REDIS_PREFIX = 'rosetta:rcache:';

export class RedisResponseCacheStore implements ResponseCacheStore {
  constructor(private readonly redis: RedisClient) {}

  async get(key: string): Promise<string | undefined> {
    return (await this.redis.get(REDIS_PREFIX + key)) ?? undefined;
  }

  async set(key: string, text: string, ttlS: number): Promise<void> {
    await this.redis.set(REDIS_PREFIX + key, text, 'EX', ttlS);
  }
}

/** Least recently used first out, within a byte budget; an expired entry is dropped when read. */
export class MemoryResponseCacheStore implements ResponseCacheStore {
  private readonly entries = new Map<string, { text: string; expiresAt: number }>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): Promise<string | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return Promise.resolve(undefined);
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) {
      this.bytes -= entry.text.length;
      return Promise.resolve(undefined);
    }
    // Read again: the most recently used goes to the end of the map's order.
    this.entries.set(key, entry);
    return Promise.resolve(entry.text);
  }

  set(key: string, text: string, ttlS: number): Promise<void> {
    this.remove(key);
    if (text.length > this.maxBytes) return Promise.resolve();
    this.entries.set(key, { text, expiresAt: this.now() + ttlS * 1000 });
    this.bytes += text.length;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
    return Promise.resolve();
  }

  /** Entries held now (expired ones included until read or pushed out). */
  get size(): number {
    return this.entries.size;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.text.length;
  }
}
