import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { atomically } from './ledger-partitions.repository';
import { coarseRollupsSql, RAW_SUMS } from './ledger-sql';

export const HOUR_MS = 3_600_000;
/** An hour as seconds since the epoch: a plain number from either driver (PostgreSQL's and PGlite's). */
const EPOCH = 'extract(epoch FROM hour)::float8 AS epoch';

/** `request_log_hourly`'s columns in order: the hour, its four dimensions, the sums. */
const HOURLY_COLUMNS =
  'hour, api_key_id, team_id, served_model, provider, requests, errors, input_tokens, output_tokens, cached_tokens, reasoning_tokens, cost_usd, cache_hits, saved_usd';

/**
 * The hourly rollup (`request_log_hourly`) and the state of each hour (`request_log_hours`), see
 * migration 1733830000000: the closed hours of the last days, so a report reads live only the hour
 * in progress. Hours are UTC instants on the hour, passed as ISO text.
 */
@Injectable()
export class LedgerHoursRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Every hour in [from, before) gets a state row, unrolled (an empty hour rolls up to nothing). */
  async registerHours(from: Date, before: Date): Promise<void> {
    if (from >= before) return;
    await this.dataSource.query(
      `INSERT INTO request_log_hours (hour)
       SELECT h FROM generate_series($1::timestamptz, $2::timestamptz - interval '1 hour', interval '1 hour') h
       ON CONFLICT (hour) DO NOTHING`,
      [from.toISOString(), before.toISOString()],
    );
  }

  /** Hours in [from, before) whose rollup is missing or stale, oldest first. */
  async staleHours(from: Date, before: Date): Promise<Date[]> {
    const rows = (await this.dataSource.query(`SELECT ${EPOCH} FROM request_log_hours WHERE NOT rolled AND hour >= $1 AND hour < $2 ORDER BY hour`, [
      from.toISOString(),
      before.toISOString(),
    ])) as Array<{ epoch: number }>;
    return rows.map((row) => new Date(row.epoch * 1000));
  }

  /**
   * Recomputes an hour's rollup from its rows in one transaction, marked rolled first (which locks
   * its state row) and aggregated in a later statement: the daily rollup's protocol, so a row that
   * lands meanwhile is either seen or leaves the hour stale for the next run.
   */
  async rollHour(hour: Date): Promise<void> {
    if (hour.getTime() % HOUR_MS !== 0) throw new Error(`not an hour: '${hour.toISOString()}'`);
    const from = hour.toISOString();
    const to = new Date(hour.getTime() + HOUR_MS).toISOString();
    const dimensions = 'api_key_id, team_id, served_model, provider';
    await atomically(
      this.dataSource,
      `INSERT INTO request_log_hours (hour, rolled) VALUES ('${from}', true) ON CONFLICT (hour) DO UPDATE SET rolled = true;
       DELETE FROM request_log_hourly WHERE hour = '${from}';
       INSERT INTO request_log_hourly (${HOURLY_COLUMNS})
         SELECT '${from}'::timestamptz, ${dimensions}, ${RAW_SUMS} FROM request_log
          WHERE created_at >= '${from}' AND created_at < '${to}' GROUP BY ${dimensions};
       ${coarseRollupsSql('request_log_hourly', 'hour', from)}`,
    );
  }

  /**
   * Forgets the hours before `before`, rollups and state (the daily rollup holds them); a state row
   * a late row created for such an hour goes too. One transaction, so a report never sees an hour
   * marked rolled without its rows.
   */
  async prune(before: Date): Promise<number> {
    const [{ n }] = (await this.dataSource.query('SELECT count(*)::int AS n FROM request_log_hours WHERE hour < $1', [before.toISOString()])) as [{ n: number }];
    if (n === 0) return 0;
    const at = before.toISOString();
    const tables = ['request_log_hours', 'request_log_hourly', 'request_log_hourly_keys', 'request_log_hourly_models'];
    await atomically(this.dataSource, tables.map((table) => `DELETE FROM ${table} WHERE hour < '${at}'`).join('; '));
    return n;
  }

  /** The whole hours inside [from, to) whose rollup is current. */
  async rolledHours(from: Date, to: Date): Promise<Date[]> {
    const rows = (await this.dataSource.query(`SELECT ${EPOCH} FROM request_log_hours WHERE rolled AND hour >= $1 AND hour + interval '1 hour' <= $2 ORDER BY hour`, [
      from.toISOString(),
      to.toISOString(),
    ])) as Array<{ epoch: number }>;
    return rows.map((row) => new Date(row.epoch * 1000));
  }
}
