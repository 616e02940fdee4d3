import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A day's key in a report's order (decision 0034): days before 2100-01-01, ascending as days descend. */
const DAY_KEY = "(DATE '2100-01-01' - day)";
const HOUR_DAY_KEY = "(DATE '2100-01-01' - (hour AT TIME ZONE 'UTC')::date)";

/**
 * `GET /admin/usage` answers a page at a time (decision 0034), its groups in a fixed order: newest
 * day first, then the other dimensions ascending. The rollup copies a report led by the day reads
 * are indexed in that order, so a page is an ordered scan that stops after its groups instead of a
 * grouping of the whole range:
 * - the full daily and hourly rollups by day, key and model (the default `day,key,model`, and
 *   the prefix of any `day,key,…` or `day,…` report they serve);
 * - their `_keys` copies by day and key (`day,key`, `day,team`).
 * The `_models` copies hold ~10 rows a day and need none. A day is keyed by its distance before
 * 2100-01-01 (see usage-report-order.ts: PostgreSQL groups only in ascending order), an expression
 * the report's statements repeat exactly so the planner matches it to these indexes.
 *
 * The indexes are built in the migration's transaction (no CONCURRENTLY), which holds writes to the
 * rollups — only the ledger maintenance writes them, and waits — for as long as the build takes: at
 * 100M ledger rows the daily rollup has ~7M rows, tens of seconds. Requests and the ledger's own
 * writes do not wait.
 */
export class UsageReportPaging1733840000000 implements MigrationInterface {
  name = 'UsageReportPaging1733840000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX request_log_daily_report_order ON request_log_daily (${DAY_KEY}, api_key_id, served_model)`);
    await queryRunner.query(`CREATE INDEX request_log_hourly_report_order ON request_log_hourly (${HOUR_DAY_KEY}, api_key_id, served_model)`);
    await queryRunner.query(`CREATE INDEX request_log_daily_keys_report_order ON request_log_daily_keys (${DAY_KEY}, api_key_id)`);
    await queryRunner.query(`CREATE INDEX request_log_hourly_keys_report_order ON request_log_hourly_keys (${HOUR_DAY_KEY}, api_key_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['daily', 'hourly', 'daily_keys', 'hourly_keys']) {
      await queryRunner.query(`DROP INDEX IF EXISTS request_log_${table}_report_order`);
    }
  }
}
