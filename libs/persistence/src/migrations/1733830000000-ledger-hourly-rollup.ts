import type { MigrationInterface, QueryRunner } from 'typeorm';

const SUM_COLUMNS =
  'requests bigint NOT NULL, errors bigint NOT NULL, input_tokens bigint NOT NULL, output_tokens bigint NOT NULL, cached_tokens bigint NOT NULL, reasoning_tokens bigint NOT NULL, cost_usd numeric NOT NULL, cache_hits bigint NOT NULL, saved_usd numeric NOT NULL';
/** The rollup's sums summed again, in SUM_COLUMNS' order (exact: numeric costs stay unrounded). */
const SUMS = ['requests', 'errors', 'input_tokens', 'output_tokens', 'cached_tokens', 'reasoning_tokens', 'cost_usd', 'cache_hits', 'saved_usd'].map((c) => `sum(${c})`).join(', ');

/**
 * The ledger's hourly rollup (decision 0027, amendment of 2026-11-29): the closed hours of the last
 * days, so a report reads live only the rows of the hour in progress instead of all of today's.
 * - `request_log_hourly`: one row per UTC hour, key, team, served model and provider, with the same
 *   exact sums as `request_log_daily`. Kept for the last days only (the maintenance prunes it);
 *   older hours are in the daily rollup.
 * - `request_log_hours`: per hour, whether its rollup is current.
 * - Coarser copies of both rollups, `…_keys` (per key and team) and `…_models` (per served model
 *   and provider), recomputed from the full rollup whenever a day or hour is: at the benchmark's
 *   shape every key × model pair appears daily, so the full rollup is only ~6× smaller than the
 *   ledger, while a report by key or team reads ~10× fewer rows from `_keys` and one by day,
 *   model or provider ~2,000× fewer from `_models`. Filled here from the existing daily rollup.
 * - A statement trigger marks an hour stale when a row for it lands after the hour ended, like the
 *   daily one does for days: the upsert locks the hour's state row, so a concurrent rollup of that
 *   hour either sees the row or leaves the hour stale. Rows of the hour in progress never touch it.
 */
export class LedgerHourlyRollup1733830000000 implements MigrationInterface {
  name = 'LedgerHourlyRollup1733830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE request_log_hourly (hour timestamptz NOT NULL, api_key_id uuid, team_id uuid, served_model text, provider text, ${SUM_COLUMNS})`);
    await queryRunner.query('CREATE INDEX request_log_hourly_hour ON request_log_hourly (hour)');
    await queryRunner.query('CREATE INDEX request_log_hourly_key_hour ON request_log_hourly (api_key_id, hour)');
    await queryRunner.query('CREATE INDEX request_log_hourly_team_hour ON request_log_hourly (team_id, hour) WHERE team_id IS NOT NULL');
    await queryRunner.query('CREATE TABLE request_log_hours (hour timestamptz PRIMARY KEY, rolled boolean NOT NULL DEFAULT false)');
    for (const [unit, type, table] of [
      ['day', 'date', 'request_log_daily'],
      ['hour', 'timestamptz', 'request_log_hourly'],
    ] as const) {
      for (const [grain, dimensions] of [
        ['keys', 'api_key_id uuid, team_id uuid'],
        ['models', 'served_model text, provider text'],
      ] as const) {
        await queryRunner.query(`CREATE TABLE ${table}_${grain} (${unit} ${type} NOT NULL, ${dimensions}, ${SUM_COLUMNS})`);
        await queryRunner.query(`CREATE INDEX ${table}_${grain}_${unit} ON ${table}_${grain} (${unit})`);
      }
      await queryRunner.query(`CREATE INDEX ${table}_keys_key_${unit} ON ${table}_keys (api_key_id, ${unit})`);
    }
    await queryRunner.query(`INSERT INTO request_log_daily_keys SELECT day, api_key_id, team_id, ${SUMS} FROM request_log_daily GROUP BY 1, 2, 3`);
    await queryRunner.query(`INSERT INTO request_log_daily_models SELECT day, served_model, provider, ${SUMS} FROM request_log_daily GROUP BY 1, 2, 3`);
    await queryRunner.query(`
      CREATE FUNCTION request_log_hours_stale() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO request_log_hours (hour)
          SELECT DISTINCT date_trunc('hour', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' FROM added
           WHERE created_at < date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
          ON CONFLICT (hour) DO UPDATE SET rolled = false WHERE request_log_hours.rolled;
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      'CREATE TRIGGER request_log_hours_stale AFTER INSERT ON request_log REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION request_log_hours_stale()',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER IF EXISTS request_log_hours_stale ON request_log');
    await queryRunner.query('DROP FUNCTION IF EXISTS request_log_hours_stale()');
    await queryRunner.query('DROP TABLE IF EXISTS request_log_hours');
    await queryRunner.query('DROP TABLE IF EXISTS request_log_hourly, request_log_hourly_keys, request_log_hourly_models, request_log_daily_keys, request_log_daily_models');
  }
}
