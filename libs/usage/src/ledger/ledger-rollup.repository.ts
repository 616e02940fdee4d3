import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { attributionFromGoneSql, attributionRecomputeSql } from '../attribution/attribution-rollup-sql';
import { atomically } from './ledger-partitions.repository';
import { coarseRollupsSql, dayBounds, RAW_SUMS, ROLLUP_COLUMNS } from './ledger-sql';

/** A day whose rollup is missing or stale; `dropped`: its raw rows went to retention before. */
export interface StaleDay {
  day: string;
  dropped: boolean;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The daily rollup (`request_log_daily`) and the state of each day (`request_log_days`), see
 * migration 1733710000000. Days are `YYYY-MM-DD` text (UTC) throughout: a `date` parsed by the
 * driver would land on the process's local midnight.
 */
@Injectable()
export class LedgerRollupRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Every day from the ledger's first row up to `before` (exclusive) gets a state row, unrolled. */
  async registerDays(before: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO request_log_days (day)
       SELECT d::date FROM generate_series((SELECT (min(created_at) AT TIME ZONE 'UTC')::date FROM request_log), $1::date - 1, interval '1 day') d
       ON CONFLICT (day) DO NOTHING`,
      [before],
    );
  }

  /** Days before `before` whose rollup is missing or stale, oldest first. */
  async staleDays(before: string): Promise<StaleDay[]> {
    return (await this.dataSource.query('SELECT day::text AS day, dropped FROM request_log_days WHERE NOT rolled AND day < $1::date ORDER BY day', [before])) as StaleDay[];
  }

  /**
   * Recomputes a day's rollup from its rows, in one transaction: the day is marked rolled first,
   * which locks its state row, so a row that lands meanwhile either is seen by the recompute (a
   * later statement, a later snapshot) or marks the day stale again once this commits. A day whose
   * rows went to retention keeps its rollup: rows written for it since (late, or by hand) are added
   * to it and leave the raw ledger in the same statement, so they are counted exactly once.
   */
  async rollDay({ day, dropped }: StaleDay): Promise<void> {
    if (!DAY.test(day)) throw new Error(`not a day: '${day}'`);
    const [from, to] = dayBounds(day);
    const range = `created_at >= '${from.toISOString()}' AND created_at < '${to.toISOString()}'`;
    const dimensions = 'api_key_id, team_id, served_model, provider';
    const recompute = dropped
      ? `WITH gone AS (DELETE FROM request_log WHERE ${range} RETURNING *)${attributionFromGoneSql(day)}
         INSERT INTO request_log_daily (${ROLLUP_COLUMNS}) SELECT '${day}'::date, ${dimensions}, ${RAW_SUMS} FROM gone GROUP BY ${dimensions}`
      : `DELETE FROM request_log_daily WHERE day = '${day}';
         ${attributionRecomputeSql(day, range)};
         INSERT INTO request_log_daily (${ROLLUP_COLUMNS}) SELECT '${day}'::date, ${dimensions}, ${RAW_SUMS} FROM request_log WHERE ${range} GROUP BY ${dimensions}`;
    await atomically(
      this.dataSource,
      `INSERT INTO request_log_days (day, rolled) VALUES ('${day}', true) ON CONFLICT (day) DO UPDATE SET rolled = true;
       ${recompute};
       ${coarseRollupsSql('request_log_daily', 'day', day)}`,
    );
  }

  /** Whether every day before `before` has a current rollup (retention drops only what it keeps). */
  async rolledBefore(before: Date): Promise<boolean> {
    const [row] = (await this.dataSource.query(
      "SELECT NOT EXISTS (SELECT 1 FROM request_log_days WHERE NOT rolled AND day < ($1::timestamptz AT TIME ZONE 'UTC')::date) AS rolled",
      [before],
    )) as [{ rolled: boolean }];
    return row.rolled;
  }

  /** The days in [from, to) whose rollup is current. */
  async rolledDays(from: string, to: string): Promise<string[]> {
    const rows = (await this.dataSource.query('SELECT day::text AS day FROM request_log_days WHERE rolled AND day >= $1::date AND day < $2::date ORDER BY day', [from, to])) as Array<{
      day: string;
    }>;
    return rows.map((row) => row.day);
  }
}
