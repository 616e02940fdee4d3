import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { LEDGER_MONTHS_AHEAD, ledgerMonthsAhead } from '@rosetta/persistence';
import { APP_LOGGER, ROSETTA_CONFIG, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import { HOUR_MS, LedgerHoursRepository } from './ledger-hours.repository';
import { LedgerPartitionsRepository } from './ledger-partitions.repository';
import { LedgerRollupRepository } from './ledger-rollup.repository';
import { DAY_MS, dayText } from './ledger-sql';

/**
 * Often enough that an hour is rolled up within minutes of its end (a report then reads live only
 * the hour in progress and a few minutes); a run with nothing to do is a few indexed queries.
 */
const RUN_EVERY_MS = 5 * 60 * 1000;
/**
 * A day is rolled up once it has been over this long: the rows that still land for it after
 * midnight (a long stream that began before it, a recovered request) are in by then. One that
 * lands later still only marks the day stale for the next run.
 */
export const ROLLUP_GRACE_MS = 60 * 60 * 1000;
/** The same for an hour: most of the rows still landing for it (streams begun in it) are in. */
export const HOUR_GRACE_MS = 5 * 60 * 1000;
/**
 * How far back closed hours stay rolled up hourly: the dashboard's 7-day chart by hour, with its
 * partial first hour. Older hours are in the daily rollup.
 */
export const HOURLY_KEEP_MS = 8 * 86_400_000;

/** What one run did, for the log and for tests. */
export interface LedgerMaintenanceRun {
  created: string[];
  rolled: string[];
  dropped: string[];
  /** Closed hours rolled up (ISO instants). */
  hours: string[];
}

/**
 * Keeps the partitioned ledger in shape (decision 0027), at start and then every five minutes, on
 * one replica at a time (an advisory lock; the others skip the run): creates the partitions of
 * this month and the next two, and of any month whose rows the default partition caught; rolls up
 * each closed day, and each closed hour of the last days (forgetting older hours); and with
 * LEDGER_RETENTION_DAYS drops months wholly older than the window, once rolled up.
 */
@Injectable()
export class LedgerMaintenanceService implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  /** Set at shutdown: a long run (the first after an upgrade) stops after the day it is rolling. */
  private stopping = false;
  /** A run of this process is under way (the timer does not start another). */
  private busy = false;

  constructor(
    private readonly partitions: LedgerPartitionsRepository,
    private readonly rollups: LedgerRollupRepository,
    private readonly hourly: LedgerHoursRepository,
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    // In the background: a first run after an upgrade may roll up months of days, and the start
    // needs none of it (the migration created this month's partitions).
    this.running = this.runLogged();
    this.timer = setInterval(() => {
      // A long run (the first after an upgrade) is not joined by another from this process: on
      // PGlite, whose one session everything shares, the advisory lock would not keep it out.
      if (!this.busy) this.running = this.runLogged();
    }, RUN_EVERY_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** One run as of `now`; undefined when another replica is running one. */
  async run(now = new Date()): Promise<LedgerMaintenanceRun | undefined> {
    return this.partitions.exclusively(async () => {
      const created = await this.createPartitions(now);
      const rolled = await this.rollClosedDays(now);
      const hours = await this.rollClosedHours(now);
      const dropped = await this.applyRetention(now);
      return { created, rolled, dropped, hours };
    });
  }

  private async runLogged(): Promise<void> {
    this.busy = true;
    try {
      const run = await this.run();
      if (run && run.created.length + run.rolled.length + run.dropped.length > 0) this.logger.info({ ledger: run }, 'ledger maintenance');
      else if (run && run.hours.length > 0) this.logger.debug({ hours: run.hours }, 'ledger maintenance: hours rolled up');
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'ledger maintenance failed; next run in five minutes');
    } finally {
      this.busy = false;
    }
  }

  private async createPartitions(now: Date): Promise<string[]> {
    const existing = await this.partitions.list();
    const months = [...ledgerMonthsAhead(now, LEDGER_MONTHS_AHEAD), ...(await this.partitions.monthsInDefault())];
    const created: string[] = [];
    for (const month of months) {
      // A month below an upper bound already held (the legacy partition's, or its own) exists.
      const held = existing.some((p) => !p.isDefault && (p.name === month.name || (p.to !== null && p.name === 'request_log_legacy' && month.from < p.to)));
      if (held || created.includes(month.name)) continue;
      await this.partitions.createMonth(month);
      created.push(month.name);
    }
    return created;
  }

  private async rollClosedDays(now: Date): Promise<string[]> {
    const before = dayText(new Date(now.getTime() - ROLLUP_GRACE_MS));
    await this.rollups.registerDays(before);
    const rolled: string[] = [];
    for (const day of await this.rollups.staleDays(before)) {
      if (this.stopping) break;
      await this.rollups.rollDay(day);
      rolled.push(day.day);
    }
    return rolled;
  }

  /** Rolls up each closed hour of the kept window that is missing or stale, and forgets older ones. */
  private async rollClosedHours(now: Date): Promise<string[]> {
    const kept = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - HOURLY_KEEP_MS);
    const before = new Date(Math.floor((now.getTime() - HOUR_GRACE_MS) / HOUR_MS) * HOUR_MS);
    await this.hourly.prune(kept);
    await this.hourly.registerHours(kept, before);
    const rolled: string[] = [];
    for (const hour of await this.hourly.staleHours(kept, before)) {
      if (this.stopping) break;
      await this.hourly.rollHour(hour);
      rolled.push(hour.toISOString());
    }
    return rolled;
  }

  private async applyRetention(now: Date): Promise<string[]> {
    if (this.config.ledgerRetentionDays === undefined) return [];
    const cutoff = new Date(now.getTime() - this.config.ledgerRetentionDays * DAY_MS);
    const dropped: string[] = [];
    for (const partition of await this.partitions.list()) {
      const to = partition.to;
      if (partition.isDefault || to === null || to > cutoff) continue;
      if (!(await this.rollups.rolledBefore(to))) {
        this.logger.warn({ partition: partition.name }, 'ledger retention: a day of this partition is not rolled up yet; kept until it is');
        break;
      }
      await this.partitions.drop({ ...partition, to });
      dropped.push(partition.name);
    }
    return dropped;
  }
}
