import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alerts by webhook (issue 31, ARCHITECTURE §9 "Governance", docs/decisions/0032):
 * - `webhooks`: where alerts go, which events, and the signing secret sealed like provider
 *   secrets (decision 0008), since it is needed back to sign;
 * - `alert_events`: the outbox. An event's id is deterministic (`budget.threshold:key:<id>:<period>:80`),
 *   so the replicas that notice the same event insert one row between them;
 * - `webhook_deliveries`: one per event and subscribed webhook, claimed by any replica's delivery
 *   loop (`FOR UPDATE SKIP LOCKED`) and retried with backoff until delivered or given up.
 */
export class AlertWebhooks1733820000000 implements MigrationInterface {
  name = 'AlertWebhooks1733820000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE webhooks (
        id uuid PRIMARY KEY,
        url text NOT NULL,
        events jsonb NOT NULL,
        secret text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE alert_events (
        id text PRIMARY KEY,
        event text NOT NULL,
        text text NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX alert_events_created ON alert_events (created_at)');
    await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        id bigserial PRIMARY KEY,
        event_id text NOT NULL REFERENCES alert_events (id) ON DELETE CASCADE,
        webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_status integer,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        UNIQUE (event_id, webhook_id)
      )`);
    // The delivery loop's claim reads only what is due.
    await queryRunner.query("CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'");
    await queryRunner.query('CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE webhook_deliveries');
    await queryRunner.query('DROP TABLE alert_events');
    await queryRunner.query('DROP TABLE webhooks');
  }
}
