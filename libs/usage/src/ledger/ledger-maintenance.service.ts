import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { LEDGER_MONTHS_AHEAD, ledgerMonthsAhead } from '@rosetta/persistence';
import { APP_LOGGER, ROSETTA_CONFIG, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import { LedgerPartitionsRepository } from './ledger-partitions.repository';
import { LedgerRollupRepository } from './ledger-rollup.repository';
import { DAY_MS, dayText } from './ledger-sql';

/** Often enough that yesterday is rolled up within the hour after it closes. */
const RUN_EVERY_MS = 60 * 60 * 1000;
/**
 * A day is rolled up once it has been over this long: the rows that still land for it after
 * midnight (a long stream that began before it, a recovered request) are in by then. One that
 * lands later still only marks the day stale for the next run.
 */
export const ROLLUP_GRACE_MS = 60 * 60 * 1000;

/** What one run did, for the log and for tests. */
export interface LedgerMaintenanceRun {
  created: string[];
  rolled: string[];
  dropped: string[];
}

/**
 * Keeps the partitioned ledger in shape (decision 0027), at start and then hourly, on one replica
 * at a time (an advisory lock; the others skip the run): creates the partitions of this month and
 * the next two, and of any month whose rows the default partition caught; rolls up each closed
 * day; and with LEDGER_RETENTION_DAYS drops months wholly older than the window, once rolled up.
 */
@Injectable()
export class LedgerMaintenanceService implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  /** Set at shutdown: a long run (the first after an upgrade) stops after the day it is rolling. */
  private stopping = false;

  constructor(
    private readonly partitions: LedgerPartitionsRepository,
    private readonly rollups: LedgerRollupRepository,
    @Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    // In the background: a first run after an upgrade may roll up months of days, and the start
    // needs none of it (the migration created this month's partitions).
    this.running = this.runLogged();
    this.timer = setInterval(() => {
      this.running = this.runLogged();
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
      const dropped = await this.applyRetention(now);
      return { created, rolled, dropped };
    });
  }

  private async runLogged(): Promise<void> {
    try {
      const run = await this.run();
      if (run && run.created.length + run.rolled.length + run.dropped.length > 0) this.logger.info({ ledger: run }, 'ledger maintenance');
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'ledger maintenance failed; next run in an hour');
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
