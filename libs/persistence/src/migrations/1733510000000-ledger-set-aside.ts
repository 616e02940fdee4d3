import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two places for ledger money that a plain row cannot hold (issue 26):
 * - `request_log_rejected`: a row the database refused for good (a value its column cannot take)
 *   is set aside here, as its JSON text, with the refusal, instead of blocking every later row of
 *   its replica. Text, not jsonb: jsonb refuses `\u0000` and lone surrogates, which JSON.stringify
 *   writes as escapes that text keeps.
 * - `request_log.uncharged_usd`: what a request's reported usage cost beyond the most one request
 *   may settle against its budget hold; its `cost_usd` is the capped charge.
 */
export class LedgerSetAside1733510000000 implements MigrationInterface {
  name = 'LedgerSetAside1733510000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS request_log_rejected (
        request_id text PRIMARY KEY,
        row_json text NOT NULL,
        error text NOT NULL,
        rejected_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('ALTER TABLE request_log ADD COLUMN IF NOT EXISTS uncharged_usd numeric(20, 12)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE request_log DROP COLUMN IF EXISTS uncharged_usd');
    await queryRunner.query('DROP TABLE IF EXISTS request_log_rejected');
  }
}
