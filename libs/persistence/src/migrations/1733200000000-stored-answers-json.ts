import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored answers as `json`, not `jsonb`: jsonb refuses `\u0000` and unpaired surrogates, which
 * JSON (and so a client's input or a model's output) may hold, and the gateway only ever reads a
 * record back whole. Such an answer was silently not kept, and continuing it was a 400.
 */
export class StoredAnswersJson1733200000000 implements MigrationInterface {
  name = 'StoredAnswersJson1733200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE stored_answers ALTER COLUMN record TYPE json USING record::json');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE stored_answers ALTER COLUMN record TYPE jsonb USING record::jsonb');
  }
}
