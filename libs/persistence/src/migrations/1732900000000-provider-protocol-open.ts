import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A provider's `protocol` is checked against the upstream protocols the code knows
 * (UPSTREAM_PROTOCOLS, when a provider is written), no longer by a CHECK constraint listing
 * three of them: a new upstream protocol is then a library and one registration line, not also
 * a migration (issue 14).
 */
export class ProviderProtocolOpen1732900000000 implements MigrationInterface {
  name = 'ProviderProtocolOpen1732900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE providers DROP CONSTRAINT IF EXISTS providers_protocol_check');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE providers ADD CONSTRAINT providers_protocol_check CHECK (protocol IN ('openai', 'anthropic', 'gemini'))");
  }
}
