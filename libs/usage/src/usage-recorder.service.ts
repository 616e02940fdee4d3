import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_LOGGER, type AppLogger } from '@rosetta/platform';
import { toUsageRow, type UsageDraft, type UsageRow } from './usage-entry';
import { UsageRepository } from './usage.repository';

const FLUSH_EVERY_MS = 1_000;
const FLUSH_AT_ROWS = 500;
/** Past this many unwritten rows (the database is down), the oldest are dropped and counted. */
const MAX_BUFFERED = 50_000;

/**
 * The usage ledger's writer: rows are queued in memory and written in batches off the hot path —
 * every second, or sooner when many are waiting — and everything pending is written on shutdown.
 * A failed batch is kept and retried with the next one.
 */
@Injectable()
export class UsageRecorderService implements OnModuleInit, OnApplicationShutdown {
  private pending: UsageRow[] = [];
  private flushing?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private dropped = 0;

  constructor(
    private readonly repository: UsageRepository,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    if (this.pending.length > 0) await this.flush();
  }

  /** Closes a request's draft into a row; O(1), no I/O. */
  record(draft: UsageDraft, status: number): void {
    this.pending.push(toUsageRow(draft, status));
    if (this.pending.length > MAX_BUFFERED) {
      this.dropped += this.pending.length - MAX_BUFFERED;
      this.pending.splice(0, this.pending.length - MAX_BUFFERED);
    }
    if (this.pending.length >= FLUSH_AT_ROWS) void this.flush();
  }

  metrics(): { pending: number; dropped: number } {
    return { pending: this.pending.length, dropped: this.dropped };
  }

  flush(): Promise<void> {
    if (this.flushing || this.pending.length === 0) return this.flushing ?? Promise.resolve();
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.repository
      .insertBatch(batch)
      .catch((error: Error) => {
        this.pending = [...batch, ...this.pending];
        this.logger.warn({ err: error.message, rows: batch.length }, 'usage ledger: batch not written; will retry');
      })
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }
}
