import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ledger's daily rollup (decision 0027): `/admin/usage` reads closed days from here and only
 * the rest (today, a day cut by `from`/`to`, a day not rolled yet) from `request_log`.
 * - `request_log_daily`: one row per UTC day, key, team, served model and provider, with the
 *   report's sums kept exact (numeric, unrounded) so any sum of them equals the raw sum.
 * - `request_log_days`: per day, whether its rollup is current (`rolled`) and whether its raw rows
 *   are gone to retention (`dropped`: the rollup is then all there is, and is never recomputed).
 * - A statement trigger marks a day stale when a row for it lands after it was rolled (a stream
 *   that began before midnight, a recovery row, a row written by hand). The upsert locks the
 *   day's row, which orders it with a rollup of that day: either the rollup sees the row, or the
 *   day is stale again when the rollup commits. Today's rows never touch the table.
 */
export class LedgerDailyRollup1733710000000 implements MigrationInterface {
  name = 'LedgerDailyRollup1733710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE request_log_daily (
        day date NOT NULL, api_key_id uuid, team_id uuid, served_model text, provider text,
        requests bigint NOT NULL, errors bigint NOT NULL, input_tokens bigint NOT NULL, output_tokens bigint NOT NULL,
        cached_tokens bigint NOT NULL, reasoning_tokens bigint NOT NULL, cost_usd numeric NOT NULL, cache_hits bigint NOT NULL,
        saved_usd numeric NOT NULL
      )`);
    await queryRunner.query('CREATE INDEX request_log_daily_day ON request_log_daily (day)');
    await queryRunner.query('CREATE INDEX request_log_daily_key_day ON request_log_daily (api_key_id, day) INCLUDE (cost_usd)');
    await queryRunner.query('CREATE INDEX request_log_daily_team_day ON request_log_daily (team_id, day) INCLUDE (cost_usd) WHERE team_id IS NOT NULL');
    await queryRunner.query(`
      CREATE TABLE request_log_days (
        day date PRIMARY KEY,
        rolled boolean NOT NULL DEFAULT false,
        dropped boolean NOT NULL DEFAULT false
      )`);
    await queryRunner.query(`
      CREATE FUNCTION request_log_days_stale() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO request_log_days (day)
          SELECT DISTINCT (created_at AT TIME ZONE 'UTC')::date FROM added
           WHERE created_at < date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
          ON CONFLICT (day) DO UPDATE SET rolled = false WHERE request_log_days.rolled;
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      'CREATE TRIGGER request_log_days_stale AFTER INSERT ON request_log REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION request_log_days_stale()',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER IF EXISTS request_log_days_stale ON request_log');
    await queryRunner.query('DROP FUNCTION IF EXISTS request_log_days_stale()');
    await queryRunner.query('DROP TABLE IF EXISTS request_log_days');
    await queryRunner.query('DROP TABLE IF EXISTS request_log_daily');
  }
}
