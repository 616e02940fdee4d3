import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A provider may be reached through a cloud platform (ARCHITECTURE §9): `platform` names it
 * (`azure`; `bedrock` and `vertex` to come) and `platform_options` holds its settings
 * (`api_version`, `auth`, `region`, `project`, `location`), never a secret.
 */
export class ProviderPlatform1733520000000 implements MigrationInterface {
  name = 'ProviderPlatform1733520000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE providers ADD COLUMN IF NOT EXISTS platform text, ADD COLUMN IF NOT EXISTS platform_options jsonb');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE providers DROP COLUMN IF EXISTS platform_options, DROP COLUMN IF EXISTS platform');
  }
}
