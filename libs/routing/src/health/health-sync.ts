import type { RedisClient } from '@rosetta/platform';
import { RollingStats, WINDOW_MINUTES, addField, applySample, bucketFields, bucketFromFields, emptyBucket, minuteOf, type Sample, type StatsBucket } from './rolling-stats';

/** A minute's hash outlives the window by a minute. */
const KEY_TTL_SECONDS = (WINDOW_MINUTES + 1) * 60;

export interface HealthLogger {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

export interface HealthSyncOptions {
  /** Redis keys are `<keyPrefix>{h}:<endpoint>:<minute>`. */
  keyPrefix: string;
  flushIntervalMs: number;
  refreshIntervalMs: number;
  clock: () => number;
}

/** Where the replica's view of every endpoint's window lives; a refresh replaces it whole. */
export interface HealthView {
  snapshot: Map<string, RollingStats>;
}

type Deltas = Map<string, Map<number, StatsBucket>>;

/**
 * Shares endpoint statistics across replicas through Redis. `record` adds a call to a delta map
 * in O(1); a timer flushes the deltas every second as one pipeline of HINCRBY into per-minute
 * hashes, and another reads the window's hashes of every endpoint this replica knows every two
 * seconds and rebuilds the view from them (plus the deltas not yet flushed). Flush and refresh
 * never overlap, and commands on one connection run in order, so a refresh sees every delta
 * flushed before it and nothing is counted twice. Redis failures are swallowed (the local view
 * keeps working; unflushed deltas are kept for later) with one warning per outage.
 */
export class HealthSync {
  private pending: Deltas = new Map();
  private readonly known = new Set<string>();
  /** Serialises flush and refresh. */
  private chain: Promise<void> = Promise.resolve();
  private busy = false;
  private redisDown = false;
  private flushTimer?: NodeJS.Timeout;
  private refreshTimer?: NodeJS.Timeout;

  constructor(
    private readonly redis: RedisClient,
    private readonly view: HealthView,
    private readonly options: HealthSyncOptions,
    private readonly log: HealthLogger,
  ) {}

  start(): void {
    if (this.flushTimer) return;
    this.flushTimer = setInterval(() => this.tick(() => this.doFlush()), this.options.flushIntervalMs);
    this.flushTimer.unref();
    this.refreshTimer = setInterval(() => this.tick(() => this.doRefresh()), this.options.refreshIntervalMs);
    this.refreshTimer.unref();
    this.tick(() => this.doRefresh());
  }

  stop(): void {
    clearInterval(this.flushTimer);
    clearInterval(this.refreshTimer);
    this.flushTimer = undefined;
    this.refreshTimer = undefined;
  }

  /** Queues one call's sample for the next flush. */
  record(endpoint: string, minute: number, sample: Sample): void {
    this.known.add(endpoint);
    applySample(this.pendingBucket(endpoint, minute), sample);
  }

  /** Makes the refresh read an endpoint's shared stats before this replica has traffic for it. */
  track(endpoint: string): void {
    this.known.add(endpoint);
  }

  flush(): Promise<void> {
    return this.serial(() => this.doFlush());
  }

  refresh(): Promise<void> {
    return this.serial(() => this.doRefresh());
  }

  private pendingBucket(endpoint: string, minute: number): StatsBucket {
    let minutes = this.pending.get(endpoint);
    if (!minutes) {
      minutes = new Map();
      this.pending.set(endpoint, minutes);
    }
    let bucket = minutes.get(minute);
    if (!bucket) {
      bucket = emptyBucket();
      minutes.set(minute, bucket);
    }
    return bucket;
  }

  /** One hash tag for every health key: each flush and refresh stays one pipeline on a Redis Cluster (a few calls a second per replica, so one slot is no hot spot). */
  private key(endpoint: string, minute: number): string {
    return `${this.options.keyPrefix}{h}:${endpoint}:${minute}`;
  }

  private serial(task: () => Promise<void>): Promise<void> {
    const run = this.chain.then(async () => {
      this.busy = true;
      try {
        await task();
      } catch (error) {
        this.failed(error);
      } finally {
        this.busy = false;
      }
    });
    this.chain = run;
    return run;
  }

  /** Timer ticks are skipped, not queued, while Redis is slow. */
  private tick(task: () => Promise<void>): void {
    if (!this.busy) void this.serial(task);
  }

  private async doFlush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const oldest = minuteOf(this.options.clock()) - WINDOW_MINUTES + 1;
    const pipeline = this.redis.pipeline();
    // What each command carried, to put back what Redis did not apply (null for EXPIRE).
    const ops: Array<{ endpoint: string; minute: number; field: string; count: number } | null> = [];
    for (const [endpoint, minutes] of batch) {
      for (const [minute, bucket] of minutes) {
        if (minute < oldest) continue;
        const key = this.key(endpoint, minute);
        for (const [field, count] of bucketFields(bucket)) {
          pipeline.hincrby(key, field, count);
          ops.push({ endpoint, minute, field, count });
        }
        pipeline.expire(key, KEY_TTL_SECONDS);
        ops.push(null);
      }
    }
    if (ops.length === 0) return;
    let results: Array<[Error | null, unknown]> | null = null;
    let error: unknown = null;
    try {
      results = await pipeline.exec();
    } catch (caught) {
      error = caught;
    }
    let firstError: unknown = results ? null : (error ?? new Error('pipeline discarded'));
    ops.forEach((op, i) => {
      const failure = results ? results[i]?.[0] : firstError;
      if (!failure) return;
      firstError ??= failure;
      if (op) addField(this.pendingBucket(op.endpoint, op.minute), op.field, op.count);
    });
    if (firstError) this.failed(firstError);
    else this.succeeded();
  }

  private async doRefresh(): Promise<void> {
    if (this.known.size === 0) return;
    const endpoints = [...this.known];
    const last = minuteOf(this.options.clock());
    const first = last - WINDOW_MINUTES + 1;
    const pipeline = this.redis.pipeline();
    for (const endpoint of endpoints) {
      for (let minute = first; minute <= last; minute++) pipeline.hgetall(this.key(endpoint, minute));
    }
    let results: Array<[Error | null, unknown]> | null;
    try {
      results = await pipeline.exec();
    } catch (error) {
      this.failed(error);
      return;
    }
    if (!results) {
      this.failed(new Error('pipeline discarded'));
      return;
    }
    const failure = results.find(([error]) => error)?.[0];
    if (failure) {
      this.failed(failure);
      return;
    }
    // Rebuilt in place, synchronously: nothing can record in between, and the buffers are reused.
    const previous = this.view.snapshot;
    const next = new Map<string, RollingStats>();
    const cleared = (endpoint: string): RollingStats => {
      const stats = previous.get(endpoint) ?? new RollingStats();
      stats.clear();
      next.set(endpoint, stats);
      return stats;
    };
    let index = 0;
    for (const endpoint of endpoints) {
      const stats = cleared(endpoint);
      for (let minute = first; minute <= last; minute++) {
        const hash = results[index++]?.[1];
        if (hash && typeof hash === 'object' && Object.keys(hash).length > 0) {
          stats.merge(minute, bucketFromFields(hash as Record<string, string>));
        }
      }
    }
    // Everything recorded here but not flushed yet (since the last flush, or put back after a
    // failed one) is not in Redis: lay it over the shared buckets.
    for (const [endpoint, minutes] of this.pending) {
      const stats = next.get(endpoint) ?? cleared(endpoint);
      for (const [minute, bucket] of minutes) stats.merge(minute, bucket);
    }
    this.view.snapshot = next;
    this.succeeded();
  }

  private failed(error: unknown): void {
    if (this.redisDown) return;
    this.redisDown = true;
    const message = error instanceof Error ? error.message : String(error);
    this.log.warn({ err: message }, 'endpoint health: Redis unavailable, using this replica’s stats only');
  }

  private succeeded(): void {
    if (!this.redisDown) return;
    this.redisDown = false;
    this.log.info({}, 'endpoint health: Redis reachable again, sharing stats');
  }
}
