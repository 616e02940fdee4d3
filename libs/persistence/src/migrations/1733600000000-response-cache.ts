import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The response cache and managed prompt caching (issue 29, ARCHITECTURE §9):
 * - `plans` and `api_keys` gain `cache` (`{mode, ttl_s, similarity}`, null: as the level above)
 *   and `prompt_cache` (`auto` | `off`, null: as the level above);
 * - `request_log` gains `cache` (`hit`, `miss`; null when the cache was not consulted),
 *   `saved_usd` (what a hit would have cost), `cache_write_tokens` (prompt-cache writes) and
 *   `cache_read_tokens`, the reads under the name §9 gives them: generated from `cached_tokens`,
 *   which the API has always shown, so the two can never disagree.
 */
export class ResponseCache1733600000000 implements MigrationInterface {
  name = 'ResponseCache1733600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE plans ADD COLUMN IF NOT EXISTS cache jsonb, ADD COLUMN IF NOT EXISTS prompt_cache text');
    await queryRunner.query('ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS cache jsonb, ADD COLUMN IF NOT EXISTS prompt_cache text');
    await queryRunner.query(
      'ALTER TABLE request_log ADD COLUMN IF NOT EXISTS cache text, ADD COLUMN IF NOT EXISTS saved_usd numeric(20, 12), ADD COLUMN IF NOT EXISTS cache_write_tokens integer NOT NULL DEFAULT 0',
    );
    await queryRunner.query('ALTER TABLE request_log ADD COLUMN IF NOT EXISTS cache_read_tokens integer GENERATED ALWAYS AS (cached_tokens) STORED');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE request_log DROP COLUMN IF EXISTS cache_read_tokens, DROP COLUMN IF EXISTS cache_write_tokens, DROP COLUMN IF EXISTS saved_usd, DROP COLUMN IF EXISTS cache');
    await queryRunner.query('ALTER TABLE api_keys DROP COLUMN IF EXISTS prompt_cache, DROP COLUMN IF EXISTS cache');
    await queryRunner.query('ALTER TABLE plans DROP COLUMN IF EXISTS prompt_cache, DROP COLUMN IF EXISTS cache');
  }
}
