import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Answers kept for their key (the Responses API's `store`), read back by id and purged when they
 * expire (RESPONSES_RETENTION_DAYS).
 */
export class StoredAnswers1733000000000 implements MigrationInterface {
  name = 'StoredAnswers1733000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE stored_answers (
      id text PRIMARY KEY,
      api_key_id text NOT NULL,
      dialect text NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`);
    await queryRunner.query('CREATE INDEX stored_answers_expires_at ON stored_answers (expires_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE stored_answers');
  }
}
