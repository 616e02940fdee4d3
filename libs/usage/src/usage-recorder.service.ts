import { Inject, Injectable, Optional, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { INVALIDATION_BUS, type InvalidationBus } from '@rosetta/persistence';
import { APP_LOGGER, type AppLogger, type Counter, type Histogram, MetricsService } from '@rosetta/platform';
import { toUsageRow, type UsageDraft, type UsageRow } from './usage-entry';
import { UsageRepository } from './usage.repository';

const FLUSH_EVERY_MS = 1_000;
const FLUSH_AT_ROWS = 500;
/** Past this many unwritten rows (the database is down), the oldest are dropped and counted. */
const MAX_BUFFERED = 50_000;
/** The bus message asking every replica to write its pending rows now (a support lookup waits). */
const LEDGER_FLUSH = 'ledger_flush';

/**
 * The usage ledger's writer: rows are queued in memory and written in batches off the hot path —
 * every second, or sooner when many are waiting — and everything pending is written on shutdown.
 * A batch the database cannot take now (it is down) is kept and retried with the next one. A batch
 * it refuses for its data is written row by row, and a row refused for good is set aside in
 * `request_log_rejected` and counted: one bad row never holds back the rest (issue 26).
 */
@Injectable()
export class UsageRecorderService implements OnModuleInit, OnApplicationShutdown {
  private pending: UsageRow[] = [];
  private flushing?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private dropped = 0;
  private rejected = 0;
  private readonly meters?: UsageMeters;
  private readonly written: ((rows: UsageRow[]) => void)[] = [];
  private recorded?: (row: UsageRow) => void;

  constructor(
    private readonly repository: UsageRepository,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    @Optional() metrics?: MetricsService,
    @Optional() @Inject(INVALIDATION_BUS) private readonly bus?: InvalidationBus,
  ) {
    if (metrics) this.meters = usageMeters(metrics, () => this.metrics());
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
    // A batch in flight leaves later rows pending: flush twice so both are written.
    this.bus?.subscribe((message) => {
      if (message.kind === LEDGER_FLUSH) void this.flush().then(() => this.flush());
    });
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    if (this.pending.length > 0) await this.flush();
  }

  /** Closes a request's draft into a row (returned, for its cost); O(1), no I/O. */
  record(draft: UsageDraft, status: number): UsageRow {
    const row = toUsageRow(draft, status);
    this.pending.push(row);
    this.recorded?.(row);
    if (this.meters) observe(this.meters, row);
    if (this.pending.length > MAX_BUFFERED) {
      this.dropped += this.pending.length - MAX_BUFFERED;
      this.pending.splice(0, this.pending.length - MAX_BUFFERED);
    }
    if (this.pending.length >= FLUSH_AT_ROWS) void this.flush();
    return row;
  }

  /** Calls `listener` with each row as it is recorded, before it is written (InflightLedgerService). */
  onRecorded(listener: (row: UsageRow) => void): void {
    this.recorded = listener;
  }

  /**
   * Calls `listener` with the rows of each batch once the database has them (or has set them
   * aside): until then a row is only in this process, and lost with it.
   */
  onWritten(listener: (rows: UsageRow[]) => void): void {
    this.written.push(listener);
  }

  /**
   * Writes rows another replica left unwritten when it died (rebuilt from what it kept in Redis),
   * now: the caller forgets them only once this resolves. A row already there (the replica wrote
   * it after all) stays as it is.
   */
  async writeRecovered(rows: UsageRow[]): Promise<void> {
    await this.repository.insertBatch(rows);
    if (this.meters) for (const row of rows) observe(this.meters, row);
  }

  /** Which ledger the rows go to (UsageRepository.identity). */
  ledgerIdentity(): Promise<string> {
    return this.repository.identity();
  }

  metrics(): LedgerFigures {
    return { pending: this.pending.length, dropped: this.dropped, rejected: this.rejected };
  }

  /**
   * Writes this replica's pending rows and asks every other replica to write theirs at once rather
   * than at their next tick; the others' writes land a few milliseconds later.
   */
  async flushEverywhere(): Promise<void> {
    await this.bus?.publish({ kind: LEDGER_FLUSH, id: '' }).catch(() => undefined);
    await this.flush();
  }

  flush(): Promise<void> {
    if (this.flushing || this.pending.length === 0) return this.flushing ?? Promise.resolve();
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.write(batch).finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async write(batch: UsageRow[]): Promise<void> {
    try {
      await this.repository.insertBatch(batch);
      return this.wrote(batch);
    } catch (error) {
      if (!refusedForItsData(error)) return this.keep(batch, error);
    }
    for (let i = 0; i < batch.length; i++) {
      const row = batch[i]!;
      try {
        await this.repository.insertBatch([row]);
      } catch (error) {
        if (!refusedForItsData(error)) {
          this.wrote(batch.slice(0, i));
          return this.keep(batch.slice(i), error);
        }
        await this.setAside(row, error);
      }
    }
    this.wrote(batch);
  }

  private wrote(rows: UsageRow[]): void {
    if (rows.length > 0) for (const listener of this.written) listener(rows);
  }

  /** The database cannot take the rows now: they wait for the next flush, ahead of newer rows. */
  private keep(rows: UsageRow[], error: unknown): void {
    this.pending = [...rows, ...this.pending];
    this.logger.warn({ err: messageOf(error), rows: rows.length }, 'usage ledger: batch not written; will retry');
  }

  private async setAside(row: UsageRow, error: unknown): Promise<void> {
    this.rejected++;
    const reason = messageOf(error);
    await this.repository.setAside(row, reason).catch((failure: unknown) => {
      // Not even the set-aside table took it: the row goes to the log, the one place left.
      this.logger.error({ err: messageOf(failure), row }, 'usage ledger: row refused and not set aside');
    });
    this.logger.error({ err: reason, requestId: row.requestId }, 'usage ledger: row refused by the database; set aside in request_log_rejected');
  }
}

export interface LedgerFigures {
  pending: number;
  dropped: number;
  rejected: number;
}

/**
 * PostgreSQL refused the statement for what it holds — a data exception (SQLSTATE class 22: a
 * number out of range, a NUL byte in text) or a violated constraint (23) — so sending it again
 * fails again; anything else (a lost connection, a time-out) may pass later.
 */
function refusedForItsData(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface UsageMeters {
  requests: Counter;
  tokens: Counter;
  cost: Counter;
  latency: Histogram;
  ttft: Histogram;
  guardrails: Counter;
}

/** What every closed request adds to this replica's metrics (the ledger row, as counters). */
function usageMeters(metrics: MetricsService, ledger: () => LedgerFigures): UsageMeters {
  metrics.gauge('rosetta_usage_ledger_pending_rows', 'Ledger rows waiting to be written to the database.', () => [{ value: ledger().pending }]);
  metrics.gauge('rosetta_usage_ledger_dropped_rows', 'Ledger rows dropped because the database stayed unreachable.', () => [{ value: ledger().dropped }]);
  metrics.gauge('rosetta_usage_ledger_rejected_rows', 'Ledger rows the database refused for their data, set aside in request_log_rejected.', () => [{ value: ledger().rejected }]);
  return {
    requests: metrics.counter('rosetta_requests_total', 'Chat requests by client dialect, served model, provider and HTTP status.', ['dialect', 'model', 'provider', 'status']),
    tokens: metrics.counter('rosetta_tokens_total', 'Tokens by served model and kind (input, output, cached, reasoning).', ['model', 'kind']),
    cost: metrics.counter('rosetta_cost_usd_total', 'Upstream cost in USD by served model.', ['model']),
    latency: metrics.histogram('rosetta_request_duration_seconds', 'Chat request duration until the response ended.', ['dialect', 'streamed']),
    ttft: metrics.histogram('rosetta_time_to_first_token_seconds', 'Time to the first streamed token.', ['dialect']),
    guardrails: metrics.counter('rosetta_guardrail_verdicts_total', 'Guardrail verdicts by check type, stage and action taken.', ['check', 'stage', 'action']),
  };
}

function observe(m: UsageMeters, row: UsageRow): void {
  const model = row.servedModel ?? row.requestedModel ?? '';
  m.requests.inc([row.dialect, model, row.provider ?? '', String(row.status)]);
  if (row.servedModel) {
    m.tokens.inc([model, 'input'], row.inputTokens);
    m.tokens.inc([model, 'output'], row.outputTokens);
    m.tokens.inc([model, 'cached'], row.cachedTokens);
    m.tokens.inc([model, 'reasoning'], row.reasoningTokens);
    m.cost.inc([model], row.costUsd);
  }
  m.latency.observe([row.dialect, row.streamed ? 'true' : 'false'], row.latencyMs / 1000);
  if (row.ttftMs !== null) m.ttft.observe([row.dialect], row.ttftMs / 1000);
  // Labels from fixed sets (five check types, two stages, three actions): bounded.
  if (row.guardrails) for (const verdict of row.guardrails) m.guardrails.inc([verdict.check, verdict.stage, verdict.action]);
}
