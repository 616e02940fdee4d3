import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The usage ledger: one row per request, written in batches. */
export class RequestLog1732400000000 implements MigrationInterface {
  name = 'RequestLog1732400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE request_log (
        request_id text PRIMARY KEY,
        api_key_id uuid,
        dialect text NOT NULL,
        requested_model text,
        served_model text,
        provider text,
        status integer NOT NULL,
        error_type text,
        input_tokens integer NOT NULL DEFAULT 0,
        output_tokens integer NOT NULL DEFAULT 0,
        cached_tokens integer NOT NULL DEFAULT 0,
        reasoning_tokens integer NOT NULL DEFAULT 0,
        cost_usd numeric(20, 12) NOT NULL DEFAULT 0,
        latency_ms integer NOT NULL,
        ttft_ms integer,
        streamed boolean NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        route text,
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query('CREATE INDEX request_log_key_time ON request_log (api_key_id, created_at)');
    await queryRunner.query('CREATE INDEX request_log_time ON request_log (created_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE request_log');
  }
}
