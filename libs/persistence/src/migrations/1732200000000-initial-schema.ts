import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Plans, API keys and settings: what the foundation needs. Later features add their own. */
export class InitialSchema1732200000000 implements MigrationInterface {
  name = 'InitialSchema1732200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE plans (
        name text PRIMARY KEY CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,62}$'),
        rpm integer CHECK (rpm IS NULL OR rpm >= 0),
        tpm integer CHECK (tpm IS NULL OR tpm >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      INSERT INTO plans (name, rpm, tpm) VALUES
        ('free', 100, 10000), ('pro', 1000, 100000), ('enterprise', NULL, NULL)`);
    await queryRunner.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        lookup_id text NOT NULL UNIQUE,
        secret_hash text NOT NULL,
        name text NOT NULL,
        plan text NOT NULL REFERENCES plans(name) ON UPDATE CASCADE,
        rpm integer CHECK (rpm IS NULL OR rpm >= 0),
        tpm integer CHECK (tpm IS NULL OR tpm >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        revoked_at timestamptz,
        last_used_at timestamptz
      )`);
    await queryRunner.query(`
      CREATE TABLE settings (
        key text PRIMARY KEY,
        value text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE settings');
    await queryRunner.query('DROP TABLE api_keys');
    await queryRunner.query('DROP TABLE plans');
  }
}
