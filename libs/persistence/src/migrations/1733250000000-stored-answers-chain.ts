import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A stored answer names the answer it continues (`parent_id`) instead of holding the whole
 * conversation before it, so storage grows linearly with a conversation and continuing one loads
 * each turn once (one recursive query); `bytes` lets the gateway bound what a request loads
 * before it loads it.
 */
export class StoredAnswersChain1733250000000 implements MigrationInterface {
  name = 'StoredAnswersChain1733250000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE stored_answers ADD COLUMN parent_id text');
    await queryRunner.query('ALTER TABLE stored_answers ADD COLUMN bytes integer NOT NULL DEFAULT 0');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE stored_answers DROP COLUMN bytes');
    await queryRunner.query('ALTER TABLE stored_answers DROP COLUMN parent_id');
  }
}
