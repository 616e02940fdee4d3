import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ledger's key is the gateway's own request id; a caller's x-request-id is kept beside it,
 * indexed for support lookups, and never trusted as a key (issue 12).
 */
export class ClientRequestId1732600000000 implements MigrationInterface {
  name = 'ClientRequestId1732600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE request_log ADD COLUMN client_request_id text');
    await queryRunner.query('CREATE INDEX request_log_client_request_id ON request_log (client_request_id) WHERE client_request_id IS NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX request_log_client_request_id');
    await queryRunner.query('ALTER TABLE request_log DROP COLUMN client_request_id');
  }
}
