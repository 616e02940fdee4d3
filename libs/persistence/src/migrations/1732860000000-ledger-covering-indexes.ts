import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ledger's (key, time) and (team, time) indexes carry `cost_usd`, so what a key or a team spent
 * since a period began (budget seeding, `GET /admin/keys/{id}`) is an index-only scan: on a
 * 10M-row ledger, 30 ms instead of 480 ms for a key with 800k rows this month
 * (docs/decisions/0007-ledger-at-scale.md). Built concurrently, outside a transaction, so a large
 * ledger keeps taking writes while the index builds; a build that failed half way is dropped and
 * rebuilt on the next start.
 */
export class LedgerCoveringIndexes1732860000000 implements MigrationInterface {
  name = 'LedgerCoveringIndexes1732860000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX CONCURRENTLY IF EXISTS request_log_key_time_cost');
    await queryRunner.query('CREATE INDEX CONCURRENTLY request_log_key_time_cost ON request_log (api_key_id, created_at) INCLUDE (cost_usd)');
    await queryRunner.query('DROP INDEX CONCURRENTLY IF EXISTS request_log_key_time');
    await queryRunner.query('DROP INDEX CONCURRENTLY IF EXISTS request_log_team_time_cost');
    await queryRunner.query(
      'CREATE INDEX CONCURRENTLY request_log_team_time_cost ON request_log (team_id, created_at) INCLUDE (cost_usd) WHERE team_id IS NOT NULL',
    );
    await queryRunner.query('DROP INDEX CONCURRENTLY IF EXISTS request_log_team_time');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX CONCURRENTLY IF NOT EXISTS request_log_key_time ON request_log (api_key_id, created_at)');
    await queryRunner.query('DROP INDEX CONCURRENTLY IF EXISTS request_log_key_time_cost');
    await queryRunner.query('CREATE INDEX CONCURRENTLY IF NOT EXISTS request_log_team_time ON request_log (team_id, created_at) WHERE team_id IS NOT NULL');
    await queryRunner.query('DROP INDEX CONCURRENTLY IF EXISTS request_log_team_time_cost');
  }
}
