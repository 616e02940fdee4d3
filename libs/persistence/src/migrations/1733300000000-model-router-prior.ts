import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An operator's prior for rosetta/auto (issue 18): what the router assumes about a model it has
 * no fitted data or catalog profile for, declared as `router_prior` in PROVIDERS_FILE or through
 * the admin API. The source column keeps the registry's precedence (catalog < file < admin) for
 * the prior on its own, so declaring one does not take the model's other fields from the catalog.
 */
export class ModelRouterPrior1733300000000 implements MigrationInterface {
  name = 'ModelRouterPrior1733300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE models ADD COLUMN router_prior jsonb, ADD COLUMN router_prior_source text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE models DROP COLUMN router_prior, DROP COLUMN router_prior_source');
  }
}
