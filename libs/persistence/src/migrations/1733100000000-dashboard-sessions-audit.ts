import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dashboard (issue 16): sign-in sessions and single sign-on flows kept server-side, so any
 * replica can check them and a sign-out applies everywhere; only a SHA-256 of a session id is
 * stored. And the audit log: every admin change and sign-in, who, what, when and from where.
 */
export class DashboardSessionsAudit1733100000000 implements MigrationInterface {
  name = 'DashboardSessionsAudit1733100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE admin_sessions (
        id_hash text PRIMARY KEY,
        role text NOT NULL CHECK (role IN ('admin', 'viewer')),
        actor text NOT NULL,
        method text NOT NULL CHECK (method IN ('token', 'oidc')),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        ip text,
        user_agent text
      )`);
    await queryRunner.query('CREATE INDEX admin_sessions_expiry ON admin_sessions (expires_at)');
    await queryRunner.query(`
      CREATE TABLE admin_login_flows (
        id_hash text PRIMARY KEY,
        state text NOT NULL,
        nonce text NOT NULL,
        code_verifier text NOT NULL,
        redirect_uri text NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE audit_log (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        actor text NOT NULL,
        role text,
        method text NOT NULL,
        action text NOT NULL,
        target_type text,
        target_id text,
        target_name text,
        details jsonb,
        ip text,
        user_agent text,
        request_id text
      )`);
    await queryRunner.query('CREATE INDEX audit_log_action ON audit_log (action, id)');
    await queryRunner.query('CREATE INDEX audit_log_at ON audit_log (at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE audit_log');
    await queryRunner.query('DROP TABLE admin_login_flows');
    await queryRunner.query('DROP TABLE admin_sessions');
  }
}
