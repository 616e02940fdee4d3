import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { APP_LOGGER, type AppLogger } from '@rosetta/platform';
import { UsageReportRepository } from '@rosetta/usage';
import { spendDailyEvent } from './alert-payloads';
import { AlertOutboxRepository } from './alert-outbox.repository';
import { ALERTS_CONFIG, type AlertsConfig } from './alerts-config';
import { AlertsService } from './alerts.service';
import { lastClosedPeriod, periodLabel, spendSummary } from './spend-summary';
import { WebhookRepository } from './webhook.repository';

/** A day's summary goes out this long after midnight UTC: rows of requests still open at midnight are in by then. */
const DAY_GRACE_MS = 5 * 60_000;

/**
 * `spend.daily`: yesterday's spend (total, top keys, teams and models) shortly after 00:00 UTC,
 * once across replicas. Every replica checks each minute whether the last closed day has its
 * event; the first to find it missing reads the usage report (the daily rollup for whole days)
 * and raises it under `spend.daily:<date>`, which the outbox keeps once. Nothing is read while no
 * webhook subscribes to it.
 */
@Injectable()
export class SpendDailyService implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private done?: string;
  private running = false;

  constructor(
    private readonly usage: UsageReportRepository,
    private readonly outbox: AlertOutboxRepository,
    private readonly webhooks: WebhookRepository,
    private readonly alerts: AlertsService,
    @Inject(ALERTS_CONFIG) private readonly config: AlertsConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.check(), Math.min(60_000, Math.max(250, this.config.spendPeriodMs / 4)));
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Raises the last closed period's summary if no replica has; the label when it did. */
  async check(now: number = Date.now()): Promise<string | undefined> {
    const periodMs = this.config.spendPeriodMs;
    const period = lastClosedPeriod(now, periodMs, Math.min(DAY_GRACE_MS, periodMs / 4));
    const label = periodLabel(period.from, periodMs);
    if (this.running || this.done === label) return undefined;
    this.running = true;
    try {
      if (!(await this.webhooks.anySubscribed('spend.daily'))) return undefined;
      if (await this.outbox.exists(`spend.daily:${label}`)) {
        this.done = label;
        return undefined;
      }
      const range = { from: period.from, to: period.to };
      const [keys, teams, models] = await Promise.all([
        this.usage.report({ ...range, groupBy: ['key'] }),
        this.usage.report({ ...range, groupBy: ['team'] }),
        this.usage.report({ ...range, groupBy: ['model'] }),
      ]);
      if (!(await this.alerts.store(spendDailyEvent(spendSummary({ ...period, label }, { keys, teams, models }))))) return undefined;
      this.done = label;
      return label;
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'alerts: daily spend summary failed; retrying in a minute');
      return undefined;
    } finally {
      this.running = false;
    }
  }
}
