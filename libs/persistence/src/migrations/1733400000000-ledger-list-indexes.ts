import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `GET /admin/requests` pages the ledger newest first under filters; each filter is served by an
 * index read in time order, so a page reads about as many rows as it shows, however rare the match
 * (docs/decisions/0007-ledger-at-scale.md, "Listing requests"): errors (`status >= 400`, a small
 * partial index), the served model, and the requested model where it differs from the served one
 * (aliases, `rosetta/auto`, failures before any model served: a partial index too). Keys, teams and
 * plain time already have theirs. Built concurrently, like the covering indexes, so a large
 * ledger keeps taking writes meanwhile; a build that failed half way is rebuilt on the next start.
 */
export class LedgerListIndexes1733400000000 implements MigrationInterface {
  name = 'LedgerListIndexes1733400000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    const indexes: Array<[string, string]> = [
      ['request_log_errors_time', '(created_at) WHERE status >= 400'],
      ['request_log_served_model_time', '(served_model, created_at)'],
      ['request_log_requested_model_time', '(requested_model, created_at) WHERE requested_model IS DISTINCT FROM served_model'],
    ];
    for (const [name, definition] of indexes) {
      await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
      await queryRunner.query(`CREATE INDEX CONCURRENTLY ${name} ON request_log ${definition}`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of ['request_log_errors_time', 'request_log_served_model_time', 'request_log_requested_model_time']) {
      await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
    }
  }
}
