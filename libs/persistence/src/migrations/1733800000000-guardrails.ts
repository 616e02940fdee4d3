import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Guardrails (issue 31, ARCHITECTURE §9 "Governance", docs/decisions/0030):
 * - `plans`, `teams` and `api_keys` gain `guardrails`: the list of checks as the admin API wrote
 *   it (null: none at that level; every level's checks apply);
 * - `request_log` gains `guardrails`: the request's verdicts `[{check, index, source, stage,
 *   action, kinds}]`, null when no check found anything. On the partitioned table the column
 *   reaches every partition, present and future.
 */
export class Guardrails1733800000000 implements MigrationInterface {
  name = 'Guardrails1733800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE plans ADD COLUMN IF NOT EXISTS guardrails jsonb');
    await queryRunner.query('ALTER TABLE teams ADD COLUMN IF NOT EXISTS guardrails jsonb');
    await queryRunner.query('ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS guardrails jsonb');
    await queryRunner.query('ALTER TABLE request_log ADD COLUMN IF NOT EXISTS guardrails jsonb');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE request_log DROP COLUMN IF EXISTS guardrails');
    await queryRunner.query('ALTER TABLE api_keys DROP COLUMN IF EXISTS guardrails');
    await queryRunner.query('ALTER TABLE teams DROP COLUMN IF EXISTS guardrails');
    await queryRunner.query('ALTER TABLE plans DROP COLUMN IF EXISTS guardrails');
  }
}
