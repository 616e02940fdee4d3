import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { afterCommit, INVALIDATION_BUS, type InvalidationBus } from '@rosetta/persistence';
import { ApiKeyRepository } from './api-key.repository';
import type { ApiKeyRecord, StoredApiKey } from './api-key.record';
import { parseApiKey, verifySecret } from './key-secret';

export type KeyCheck = { ok: true; key: ApiKeyRecord } | { ok: false; reason: 'invalid' | 'revoked' | 'expired' };

interface Entry {
  stored: StoredApiKey | null;
  loadedAt: number;
}

const MAX_ENTRIES = 50_000;
/** Unknown ids are remembered briefly so a flood of bad keys cannot turn into database load. */
const NEGATIVE_TTL_MS = 30_000;
/** Known keys are re-read now and then even without a notification, as a safety net. */
const POSITIVE_TTL_MS = 5 * 60_000;
const TOUCH_FLUSH_MS = 15_000;

/**
 * Keys are checked from memory: the hot path does no database query once a key has been seen.
 * Revocations and new keys arrive through the invalidation bus, on every replica, within
 * milliseconds; a lost bus connection drops the whole cache.
 */
@Injectable()
export class KeyCacheService implements OnModuleInit, OnModuleDestroy {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<StoredApiKey | null>>();
  private readonly touched = new Set<string>();
  private flushTimer?: NodeJS.Timeout;

  constructor(
    private readonly repository: ApiKeyRepository,
    @Inject(INVALIDATION_BUS) private readonly bus: InvalidationBus,
  ) {}

  onModuleInit(): void {
    this.bus.subscribe((message) => {
      if (message.kind === 'reset') this.entries.clear();
      else if (message.kind === 'api_key') this.entries.delete(message.id);
    });
    this.flushTimer = setInterval(() => void this.flushTouched(), TOUCH_FLUSH_MS);
    this.flushTimer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.flushTouched();
  }

  async check(presented: string, now = Date.now()): Promise<KeyCheck> {
    const parsed = parseApiKey(presented);
    if (!parsed) return { ok: false, reason: 'invalid' };
    const stored = await this.lookup(parsed.lookupId, now);
    if (!stored || !verifySecret(parsed.secret, stored.secretHash)) return { ok: false, reason: 'invalid' };
    if (stored.revokedAt) return { ok: false, reason: 'revoked' };
    if (stored.expiresAt && stored.expiresAt.getTime() <= now) return { ok: false, reason: 'expired' };
    this.touched.add(stored.id);
    const { secretHash: _hash, ...record } = stored;
    return { ok: true, key: record };
  }

  /** Drops a key from this replica's cache and tells the others to do the same. */
  async invalidate(lookupId: string): Promise<void> {
    // Only once the change is committed: dropped earlier, a lookup could cache the old row again.
    await afterCommit(async () => {
      this.entries.delete(lookupId);
      await this.bus.publish({ kind: 'api_key', id: lookupId });
    });
  }

  private async lookup(lookupId: string, now: number): Promise<StoredApiKey | null> {
    const entry = this.entries.get(lookupId);
    if (entry) {
      const ttl = entry.stored ? POSITIVE_TTL_MS : NEGATIVE_TTL_MS;
      if (now - entry.loadedAt < ttl) return entry.stored;
    }
    let pending = this.loading.get(lookupId);
    if (!pending) {
      pending = this.repository.findByLookupId(lookupId).finally(() => this.loading.delete(lookupId));
      this.loading.set(lookupId, pending);
    }
    const stored = await pending;
    this.remember(lookupId, { stored, loadedAt: now });
    return stored;
  }

  private remember(lookupId: string, entry: Entry): void {
    this.entries.delete(lookupId);
    this.entries.set(lookupId, entry);
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  private async flushTouched(): Promise<void> {
    if (this.touched.size === 0) return;
    const ids = [...this.touched];
    this.touched.clear();
    await this.repository.touch(ids).catch(() => undefined);
  }
}
