import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A dashboard session opened with the admin token is bound to that token (issue 26): a
 * fingerprint of the token's hash is stored with it, and a session whose fingerprint is not the
 * current token's is no longer accepted, so rotating ADMIN_TOKEN ends every session it opened.
 * Token sessions from before this have none and end now: one more sign-in, on purpose.
 */
export class AdminSessionTokenBinding1733460000000 implements MigrationInterface {
  name = 'AdminSessionTokenBinding1733460000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE admin_sessions ADD COLUMN token_fingerprint text');
    await queryRunner.query("DELETE FROM admin_sessions WHERE method = 'token'");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE admin_sessions DROP COLUMN token_fingerprint');
  }
}
