import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Embedding models (issue 15): a model's `kind` (`chat` or `embedding`: chat requests never reach
 * an embedding model, embeddings requests never a chat model), and an embedding endpoint's vector
 * size and whether it takes a smaller one (`dimensions` / `outputDimensionality`). An embedding
 * endpoint produces no tokens, so its `max_completion_tokens` is 0.
 */
export class EmbeddingModels1732950000000 implements MigrationInterface {
  name = 'EmbeddingModels1732950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE models ADD COLUMN kind text NOT NULL DEFAULT 'chat' CHECK (kind IN ('chat', 'embedding'))");
    await queryRunner.query('ALTER TABLE endpoints ADD COLUMN dimensions integer CHECK (dimensions > 0)');
    await queryRunner.query('ALTER TABLE endpoints ADD COLUMN custom_dimensions boolean NOT NULL DEFAULT false');
    await queryRunner.query('ALTER TABLE endpoints DROP CONSTRAINT IF EXISTS endpoints_max_completion_tokens_check');
    await queryRunner.query('ALTER TABLE endpoints ADD CONSTRAINT endpoints_max_completion_tokens_check CHECK (max_completion_tokens >= 0)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DELETE FROM models WHERE kind = \'embedding\'');
    await queryRunner.query('ALTER TABLE endpoints DROP CONSTRAINT IF EXISTS endpoints_max_completion_tokens_check');
    await queryRunner.query('ALTER TABLE endpoints ADD CONSTRAINT endpoints_max_completion_tokens_check CHECK (max_completion_tokens > 0)');
    await queryRunner.query('ALTER TABLE endpoints DROP COLUMN custom_dimensions');
    await queryRunner.query('ALTER TABLE endpoints DROP COLUMN dimensions');
    await queryRunner.query('ALTER TABLE models DROP COLUMN kind');
  }
}
