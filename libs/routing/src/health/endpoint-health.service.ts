import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { APP_LOGGER, type AppLogger, REDIS_CLIENT, type RedisClient } from '@rosetta/platform';
import { CircuitBreakerService } from './circuit-breaker.service';
import { HealthSync, type HealthLogger } from './health-sync';
import { type HealthOutcome, type HealthSummary, minuteOf, RollingStats, SampleKind, toSample } from './rolling-stats';
import { DEFAULT_STATUS_THRESHOLDS, EndpointStatus, endpointStatus, type StatusThresholds } from './status-policy';

export * from './status-policy';

export const ENDPOINT_HEALTH_OPTIONS = Symbol('ENDPOINT_HEALTH_OPTIONS');

export interface EndpointHealthOptions {
  clock?: () => number;
  /** Redis keys are `<keyPrefix>{h}:<endpoint>:<minute>`. Default `rosetta:health:`. */
  keyPrefix?: string;
  /** Default 1,000 ms. */
  flushIntervalMs?: number;
  /** Default 2,000 ms. */
  refreshIntervalMs?: number;
  /** Start the flush/refresh timers on module init (only with Redis). Default true. */
  autoStart?: boolean;
  thresholds?: Partial<StatusThresholds>;
}

function nestLogger(): HealthLogger {
  const logger = new Logger('EndpointHealth');
  return {
    warn: (fields, message) => logger.warn(`${message} ${JSON.stringify(fields)}`),
    info: (fields, message) => logger.log(`${message} ${JSON.stringify(fields)}`),
  };
}

/**
 * Live health of provider endpoints (key `<provider slug>/<upstream model>`): success rate,
 * TTFT, latency and throughput percentiles over 30 minutes (RollingStats); registry status
 * (status-policy.ts) and uptime. The hot path touches memory only: `record` updates this
 * replica's view in O(1), and `stats`, `status` and `uptime` read it; with Redis, HealthSync
 * shares the view across replicas in the background.
 *
 * `record` also feeds the circuit breaker: an endpoint failure counts against it, anything else
 * (including a caller's 4xx) shows the endpoint answering. Callers take admission from
 * `CircuitBreakerService.tryAcquire` and must `release` a probe whose call ends without an outcome.
 */
@Injectable()
export class EndpointHealthService implements OnModuleInit, OnModuleDestroy {
  /** This replica's view of every endpoint's window (HealthSync replaces it on refresh). */
  private readonly window = { snapshot: new Map<string, RollingStats>() };
  private readonly disabled = new Set<string>();
  private readonly clock: () => number;
  private readonly autoStart: boolean;
  private readonly thresholds: StatusThresholds;
  private readonly sync: HealthSync | null;
  private readonly breaker: CircuitBreakerService | null;

  constructor(
    @Optional() @Inject(REDIS_CLIENT) redis?: RedisClient | null,
    @Optional() breaker?: CircuitBreakerService,
    @Optional() @Inject(APP_LOGGER) logger?: AppLogger,
    @Optional() @Inject(ENDPOINT_HEALTH_OPTIONS) options?: EndpointHealthOptions,
  ) {
    this.breaker = breaker ?? null;
    this.clock = options?.clock ?? Date.now;
    this.autoStart = options?.autoStart ?? true;
    this.thresholds = { ...DEFAULT_STATUS_THRESHOLDS, ...options?.thresholds };
    const syncOptions = {
      keyPrefix: options?.keyPrefix ?? 'rosetta:health:',
      flushIntervalMs: options?.flushIntervalMs ?? 1_000,
      refreshIntervalMs: options?.refreshIntervalMs ?? 2_000,
      clock: this.clock,
    };
    this.sync = redis ? new HealthSync(redis, this.window, syncOptions, logger ?? nestLogger()) : null;
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
    this.sync?.start();
  }

  stop(): void {
    this.sync?.stop();
  }

  /** Records one call's outcome. Synchronous, O(1), no I/O. */
  record(endpoint: string, outcome: HealthOutcome): void {
    const now = this.clock();
    const minute = minuteOf(now);
    const sample = toSample(outcome);
    this.statsOf(endpoint).apply(minute, sample);
    this.sync?.record(endpoint, minute, sample);
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
    const recent = this.window.snapshot.get(endpoint)?.recent(now, this.thresholds.recentMinutes);
    return endpointStatus(false, this.breaker?.state(endpoint, now) ?? 'closed', recent, this.thresholds);
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
    this.sync?.track(endpoint);
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
    return this.sync?.flush() ?? Promise.resolve();
  }

  /** Rebuilds the snapshot from Redis now. Never throws. */
  refresh(): Promise<void> {
    return this.sync?.refresh() ?? Promise.resolve();
  }

  private statsOf(endpoint: string): RollingStats {
    let stats = this.window.snapshot.get(endpoint);
    if (!stats) {
      stats = new RollingStats();
      this.window.snapshot.set(endpoint, stats);
    }
    return stats;
  }
}
