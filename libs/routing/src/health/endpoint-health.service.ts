import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { APP_LOGGER, type AppLogger, REDIS_CLIENT, type RedisClient } from '@rosetta/platform';
import { CircuitBreakerService } from './circuit-breaker.service';
import {
  addField,
  applySample,
  bucketFields,
  bucketFromFields,
  emptyBucket,
  type HealthOutcome,
  type HealthSummary,
  minuteOf,
  RollingStats,
  SampleKind,
  type StatsBucket,
  toSample,
  WINDOW_MINUTES,
} from './rolling-stats';

/** Registry `status` of a provider endpoint (ARCHITECTURE §4.11). */
export const EndpointStatus = { Operational: 0, Degraded: 1, Down: 2, Disabled: 3 } as const;
export type EndpointStatus = (typeof EndpointStatus)[keyof typeof EndpointStatus];

/**
 * How `status()` is derived. Over the last `recentMinutes` minutes (shared across replicas when
 * Redis is configured), with at least `minSamples` calls that count for health:
 *   down (2)      the circuit is open, or success rate < `downBelow`
 *   degraded (1)  the circuit is half-open, or success rate < `degradedBelow`
 *   operational   otherwise, including an endpoint with too little traffic to judge
 * Disabled (3) is the operator's switch and wins over everything.
 */
export interface StatusThresholds {
  recentMinutes: number;
  minSamples: number;
  downBelow: number;
  degradedBelow: number;
}

export const DEFAULT_STATUS_THRESHOLDS: StatusThresholds = { recentMinutes: 5, minSamples: 5, downBelow: 0.5, degradedBelow: 0.95 };

export const ENDPOINT_HEALTH_OPTIONS = Symbol('ENDPOINT_HEALTH_OPTIONS');

export interface EndpointHealthOptions {
  clock?: () => number;
  /** Redis keys are `<keyPrefix><endpoint>:<minute>`. Default `rosetta:health:`. */
  keyPrefix?: string;
  /** Default 1,000 ms. */
  flushIntervalMs?: number;
  /** Default 2,000 ms. */
  refreshIntervalMs?: number;
  /** Start the flush/refresh timers on module init (only with Redis). Default true. */
  autoStart?: boolean;
  thresholds?: Partial<StatusThresholds>;
}

/** A minute's hash outlives the window by a minute. */
const KEY_TTL_SECONDS = (WINDOW_MINUTES + 1) * 60;

interface HealthLogger {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

function nestLogger(): HealthLogger {
  const logger = new Logger('EndpointHealth');
  return {
    warn: (fields, message) => logger.warn(`${message} ${JSON.stringify(fields)}`),
    info: (fields, message) => logger.log(`${message} ${JSON.stringify(fields)}`),
  };
}

type Deltas = Map<string, Map<number, StatsBucket>>;

/**
 * Live health of provider endpoints (key `<provider slug>/<upstream model>`): success rate,
 * TTFT, latency and throughput percentiles over 30 minutes; registry status and uptime.
 *
 * The hot path touches memory only: `record` updates this replica's view and a delta map in
 * O(1); `stats`, `status` and `uptime` read the view. With Redis, a timer flushes the deltas
 * every second as one pipeline of HINCRBY into per-minute hashes, and another reads the window's
 * hashes of every endpoint this replica knows every two seconds and rebuilds the view from them
 * (plus the deltas not yet flushed). Flush and refresh never overlap, and commands on one
 * connection run in order, so a refresh sees every delta flushed before it and nothing is
 * counted twice. Redis failures are swallowed (the local view keeps working; unflushed deltas are
 * kept for later) with one warning per outage.
 *
 * `record` also feeds the circuit breaker: an endpoint failure counts against it, anything else
 * (including a caller's 4xx) shows the endpoint answering. Callers take admission from
 * `CircuitBreakerService.tryAcquire` and must `release` a probe whose call ends without an outcome.
 */
@Injectable()
export class EndpointHealthService implements OnModuleInit, OnModuleDestroy {
  private snapshot = new Map<string, RollingStats>();
  private pending: Deltas = new Map();
  private readonly known = new Set<string>();
  private readonly disabled = new Set<string>();
  private readonly clock: () => number;
  private readonly keyPrefix: string;
  private readonly flushIntervalMs: number;
  private readonly refreshIntervalMs: number;
  private readonly autoStart: boolean;
  private readonly thresholds: StatusThresholds;
  private readonly log: HealthLogger;
  private readonly redis: RedisClient | null;
  private readonly breaker: CircuitBreakerService | null;
  /** Serialises flush and refresh. */
  private chain: Promise<void> = Promise.resolve();
  private busy = false;
  private redisDown = false;
  private flushTimer?: NodeJS.Timeout;
  private refreshTimer?: NodeJS.Timeout;

  constructor(
    @Optional() @Inject(REDIS_CLIENT) redis?: RedisClient | null,
    @Optional() breaker?: CircuitBreakerService,
    @Optional() @Inject(APP_LOGGER) logger?: AppLogger,
    @Optional() @Inject(ENDPOINT_HEALTH_OPTIONS) options?: EndpointHealthOptions,
  ) {
    this.redis = redis ?? null;
    this.breaker = breaker ?? null;
    this.log = logger ?? nestLogger();
    this.clock = options?.clock ?? Date.now;
    this.keyPrefix = options?.keyPrefix ?? 'rosetta:health:';
    this.flushIntervalMs = options?.flushIntervalMs ?? 1_000;
    this.refreshIntervalMs = options?.refreshIntervalMs ?? 2_000;
    this.autoStart = options?.autoStart ?? true;
    this.thresholds = { ...DEFAULT_STATUS_THRESHOLDS, ...options?.thresholds };
  }

  onModuleInit(): void {
    if (this.autoStart) this.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.stop();
    await this.flush();
  }

  /** Starts the flush and refresh timers (no-op without Redis or when already running). */
  start(): void {
    if (!this.redis || this.flushTimer) return;
    this.flushTimer = setInterval(() => this.tick(() => this.doFlush()), this.flushIntervalMs);
    this.flushTimer.unref();
    this.refreshTimer = setInterval(() => this.tick(() => this.doRefresh()), this.refreshIntervalMs);
    this.refreshTimer.unref();
    this.tick(() => this.doRefresh());
  }

  stop(): void {
    clearInterval(this.flushTimer);
    clearInterval(this.refreshTimer);
    this.flushTimer = undefined;
    this.refreshTimer = undefined;
  }

  /** Records one call's outcome. Synchronous, O(1), no I/O. */
  record(endpoint: string, outcome: HealthOutcome): void {
    const now = this.clock();
    const minute = minuteOf(now);
    const sample = toSample(outcome);
    this.statsOf(endpoint).apply(minute, sample);
    if (this.redis) {
      this.known.add(endpoint);
      applySample(this.pendingBucket(endpoint, minute), sample);
    }
    this.breaker?.record(endpoint, sample.kind === SampleKind.Failure, now);
  }

  /** Statistics over the last 30 minutes, from the local snapshot. */
  stats(endpoint: string): HealthSummary {
    this.track(endpoint);
    return this.statsOf(endpoint).summary(this.clock());
  }

  /** 0 operational, 1 degraded, 2 down, 3 disabled (see StatusThresholds). */
  status(endpoint: string): EndpointStatus {
    if (this.disabled.has(endpoint)) return EndpointStatus.Disabled;
    this.track(endpoint);
    const now = this.clock();
    const breaker = this.breaker?.state(endpoint, now) ?? 'closed';
    if (breaker === 'open') return EndpointStatus.Down;
    const { recentMinutes, minSamples, downBelow, degradedBelow } = this.thresholds;
    const recent = this.snapshot.get(endpoint)?.recent(now, recentMinutes);
    const samples = recent ? recent.successes + recent.failures : 0;
    const rate = recent && samples >= minSamples ? recent.successes / samples : null;
    if (rate !== null && rate < downBelow) return EndpointStatus.Down;
    if (breaker === 'half-open') return EndpointStatus.Degraded;
    if (rate !== null && rate < degradedBelow) return EndpointStatus.Degraded;
    return EndpointStatus.Operational;
  }

  /** Percent of calls that succeeded over the last 30 minutes; null without traffic. */
  uptime(endpoint: string): number | null {
    return this.stats(endpoint).uptimePct;
  }

  /** Operator switch: a disabled endpoint reports status 3 (this replica; propagation is the caller's). */
  setDisabled(endpoint: string, disabled: boolean): void {
    if (disabled) this.disabled.add(endpoint);
    else this.disabled.delete(endpoint);
  }

  isDisabled(endpoint: string): boolean {
    return this.disabled.has(endpoint);
  }

  /** Makes the refresh read an endpoint's shared stats before this replica has traffic for it. */
  track(endpoint: string): void {
    if (this.redis) this.known.add(endpoint);
  }

  /*
   * The shape of the registry's EndpointHealthPort (available / view / report), structurally, so
   * it can be bound with `{ provide: ENDPOINT_HEALTH, useExisting: EndpointHealthService }`.
   */

  /**
   * May the router put this endpoint in a plan now: not disabled, circuit not open, and when
   * half-open no probe already out. Does not take the probe: the executor calls
   * `CircuitBreakerService.tryAcquire` right before the call for that.
   */
  available(endpoint: string): boolean {
    if (this.disabled.has(endpoint)) return false;
    if (!this.breaker) return true;
    const info = this.breaker.info(endpoint, this.clock());
    return info.state === 'closed' || (info.state === 'half-open' && !info.probeInFlight);
  }

  /** The status now; the percentiles only when read (ordering by status alone needs none). */
  view(endpoint: string): { status: EndpointStatus; throughputP50: number | null; latencyP50: number | null; ttftP50: number | null; uptime: number | null } {
    let summary: HealthSummary | undefined;
    const stats = (): HealthSummary => (summary ??= this.stats(endpoint));
    return {
      status: this.status(endpoint),
      get throughputP50() {
        return stats().throughputP50;
      },
      get latencyP50() {
        return stats().latencyP50;
      },
      get ttftP50() {
        return stats().ttftP50;
      },
      get uptime() {
        return stats().uptimePct;
      },
    };
  }

  /** Same as `record`. */
  report(endpoint: string, outcome: HealthOutcome): void {
    this.record(endpoint, outcome);
  }

  /** Sends the pending deltas to Redis now (one pipeline). Never throws. */
  flush(): Promise<void> {
    return this.serial(() => this.doFlush());
  }

  /** Rebuilds the snapshot from Redis now. Never throws. */
  refresh(): Promise<void> {
    return this.serial(() => this.doRefresh());
  }

  private statsOf(endpoint: string): RollingStats {
    let stats = this.snapshot.get(endpoint);
    if (!stats) {
      stats = new RollingStats();
      this.snapshot.set(endpoint, stats);
    }
    return stats;
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

  private key(endpoint: string, minute: number): string {
    return `${this.keyPrefix}${endpoint}:${minute}`;
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
    const redis = this.redis;
    if (!redis || this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const oldest = minuteOf(this.clock()) - WINDOW_MINUTES + 1;
    const pipeline = redis.pipeline();
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
    const redis = this.redis;
    if (!redis || this.known.size === 0) return;
    const endpoints = [...this.known];
    const last = minuteOf(this.clock());
    const first = last - WINDOW_MINUTES + 1;
    const pipeline = redis.pipeline();
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
    const next = new Map<string, RollingStats>();
    let index = 0;
    for (const endpoint of endpoints) {
      const stats = this.snapshot.get(endpoint) ?? new RollingStats();
      stats.clear();
      for (let minute = first; minute <= last; minute++) {
        const hash = results[index++]?.[1];
        if (hash && typeof hash === 'object' && Object.keys(hash).length > 0) {
          stats.merge(minute, bucketFromFields(hash as Record<string, string>));
        }
      }
      next.set(endpoint, stats);
    }
    // Everything recorded here but not flushed yet (since the last flush, or put back after a
    // failed one) is not in Redis: lay it over the shared buckets.
    for (const [endpoint, minutes] of this.pending) {
      let stats = next.get(endpoint);
      if (!stats) {
        stats = this.snapshot.get(endpoint) ?? new RollingStats();
        stats.clear();
        next.set(endpoint, stats);
      }
      for (const [minute, bucket] of minutes) stats.merge(minute, bucket);
    }
    this.snapshot = next;
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
