/** Milliseconds since the epoch; injectable so tests move time instead of waiting. */
export type Clock = () => number;

interface Entry {
  /** Tokens of the cached prefix, reported when it is read. */
  tokens: number;
  ttlMs: number;
  expiresAt: number;
}

/** Enough for long agent sessions and benchmark runs; the least recently used go first beyond it. */
export const DEFAULT_MAX_CACHE_ENTRIES = 50_000;

/**
 * The simulated providers' prompt caches: prefix hashes per partition (credential, model and,
 * for OpenAI, the cache key), each with a lifetime that a read renews, as the providers renew it.
 * Expired entries are dropped when met; the oldest-used go first once the store is full, so
 * benchmark load cannot grow it without bound.
 */
export class PromptCacheStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly now: Clock = Date.now,
    private readonly maxEntries = DEFAULT_MAX_CACHE_ENTRIES,
  ) {}

  /** The live entry's tokens, renewing its lifetime; undefined when absent or expired. */
  read(partition: string, hash: string): number | undefined {
    const key = keyOf(partition, hash);
    const entry = this.live(key);
    if (!entry) return undefined;
    this.store(key, { ...entry, expiresAt: this.now() + entry.ttlMs });
    return entry.tokens;
  }

  /** Whether a live entry exists, without renewing it. */
  has(partition: string, hash: string): boolean {
    return this.live(keyOf(partition, hash)) !== undefined;
  }

  /** Writes (or renews) an entry; an existing longer lifetime is kept. */
  write(partition: string, hash: string, tokens: number, ttlMs: number): void {
    const key = keyOf(partition, hash);
    const ttl = Math.max(ttlMs, this.live(key)?.ttlMs ?? 0);
    this.store(key, { tokens, ttlMs: ttl, expiresAt: this.now() + ttl });
  }

  clear(): void {
    this.entries.clear();
  }

  /** Live entries (expired ones still held are not counted). */
  size(): number {
    const now = this.now();
    let live = 0;
    for (const entry of this.entries.values()) if (entry.expiresAt > now) live += 1;
    return live;
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now()) return entry;
    this.entries.delete(key);
    return undefined;
  }

  /** Re-inserting moves the key to the end of the Map's order, which makes eviction least-recently-used. */
  private store(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}

function keyOf(partition: string, hash: string): string {
  return `${partition}\u0000${hash}`;
}
