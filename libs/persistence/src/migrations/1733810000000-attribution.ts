import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The sums every rollup keeps (as request_log_daily's, exact and unrounded). */
const SUMS = `requests bigint NOT NULL, errors bigint NOT NULL, input_tokens bigint NOT NULL, output_tokens bigint NOT NULL,
  cached_tokens bigint NOT NULL, reasoning_tokens bigint NOT NULL, cost_usd numeric NOT NULL, cache_hits bigint NOT NULL,
  saved_usd numeric NOT NULL`;
const SUM_COLUMNS = 'requests, errors, input_tokens, output_tokens, cached_tokens, reasoning_tokens, cost_usd, cache_hits, saved_usd';

/**
 * Attribution (ARCHITECTURE §9 "Governance", decision 0033):
 * - `request_log` gains `end_user` and `tags`, with an index for the end user (the ledger filter,
 *   and an end-user budget's spend when its counter is seeded: the key's id and cost are in it)
 *   and a GIN index for `?tag=`;
 * - `api_keys` gains `end_user_budget_usd` (its period is the key's `budget_period`, which now goes
 *   with either budget);
 * - two daily rollups beside `request_log_daily`, so `/admin/usage?group_by=end_user|tag` reads
 *   closed days as the other groupings do without growing the main rollup by every end user:
 *   `request_log_daily_end_user` (day, key, team, end user, model, provider) and
 *   `request_log_daily_tag` (the same by tag; a request with several tags counts under each, one
 *   without any under a null tag). They are rolled with the main rollup, in its transaction.
 *
 * Days already rolled are marked stale, so the next maintenance run fills the new rollups from
 * their rows; days whose rows went to retention had no attribution, and get theirs from the main
 * rollup, all under a null end user and a null tag.
 */
export class Attribution1733810000000 implements MigrationInterface {
  name = 'Attribution1733810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE request_log ADD COLUMN IF NOT EXISTS end_user text, ADD COLUMN IF NOT EXISTS tags text[]');
    await queryRunner.query('CREATE INDEX IF NOT EXISTS request_log_end_user_time ON request_log (end_user, created_at) INCLUDE (api_key_id, cost_usd) WHERE end_user IS NOT NULL');
    await queryRunner.query('CREATE INDEX IF NOT EXISTS request_log_tags ON request_log USING gin (tags) WHERE tags IS NOT NULL');
    // The period goes with whichever budget a key has: its own, its end users', or both.
    await queryRunner.query(`ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS end_user_budget_usd numeric, DROP CONSTRAINT IF EXISTS api_keys_budget_whole,
      ADD CONSTRAINT api_keys_budget_whole CHECK ((budget_usd IS NULL AND end_user_budget_usd IS NULL) = (budget_period IS NULL))`);
    for (const [table, dimension] of [['request_log_daily_end_user', 'end_user'], ['request_log_daily_tag', 'tag']] as const) {
      await queryRunner.query(`CREATE TABLE ${table} (day date NOT NULL, api_key_id uuid, team_id uuid, ${dimension} text, served_model text, provider text, ${SUMS})`);
      await queryRunner.query(`CREATE INDEX ${table}_day ON ${table} (day)`);
      await queryRunner.query(`CREATE INDEX ${table}_key_day ON ${table} (api_key_id, ${dimension}, day) INCLUDE (cost_usd)`);
      await queryRunner.query(
        `INSERT INTO ${table} (day, api_key_id, team_id, ${dimension}, served_model, provider, ${SUM_COLUMNS})
         SELECT d.day, d.api_key_id, d.team_id, NULL, d.served_model, d.provider, ${SUM_COLUMNS.split(', ').map((c) => `d.${c}`).join(', ')}
           FROM request_log_daily d JOIN request_log_days s ON s.day = d.day AND s.dropped`,
      );
    }
    await queryRunner.query('UPDATE request_log_days SET rolled = false WHERE rolled AND NOT dropped');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS request_log_daily_tag');
    await queryRunner.query('DROP TABLE IF EXISTS request_log_daily_end_user');
    await queryRunner.query('UPDATE api_keys SET budget_period = NULL WHERE budget_usd IS NULL');
    await queryRunner.query(`ALTER TABLE api_keys DROP CONSTRAINT IF EXISTS api_keys_budget_whole, DROP COLUMN IF EXISTS end_user_budget_usd,
      ADD CONSTRAINT api_keys_budget_whole CHECK ((budget_usd IS NULL) = (budget_period IS NULL))`);
    await queryRunner.query('DROP INDEX IF EXISTS request_log_tags');
    await queryRunner.query('DROP INDEX IF EXISTS request_log_end_user_time');
    await queryRunner.query('ALTER TABLE request_log DROP COLUMN IF EXISTS tags, DROP COLUMN IF EXISTS end_user');
  }
}
