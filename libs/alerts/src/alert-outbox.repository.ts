import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AlertEvent, AlertEventName } from './alert-event';

/** A delivery claimed by this replica: the event, the webhook and its sealed secret. */
export interface ClaimedDelivery {
  id: string;
  /** This attempt's number (1 for the first). */
  attempt: number;
  eventId: string;
  event: AlertEventName;
  text: string;
  data: Record<string, unknown>;
  webhookId: string;
  url: string;
  sealedSecret: string;
}

/** What one attempt came to; `retryInMs` set while attempts are left. */
export interface AttemptOutcome {
  status: 'delivered' | 'pending' | 'failed';
  httpStatus: number | null;
  error: string | null;
  retryInMs?: number;
}

/** How long a claimed delivery is this replica's before another may take it (a replica that died mid-attempt). */
const LEASE_MARGIN_MS = 30_000;
/** Delivered and failed events are kept this long (the ids they hold keep an event from firing twice). */
export const EVENT_RETENTION_DAYS = 90;

/**
 * The alerts outbox (docs/decisions/0032), the only place that touches `alert_events` and
 * `webhook_deliveries`. Raising an event inserts it under its deterministic id with
 * `ON CONFLICT DO NOTHING` and, in the same statement, one delivery per subscribed webhook only
 * when the insert won: however many replicas notice an event, it is delivered once per webhook.
 */
@Injectable()
export class AlertOutboxRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Stores a new event and its deliveries; how many deliveries were created (0: known, or nobody subscribes). */
  async raise(event: AlertEvent): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH e AS (
         INSERT INTO alert_events (id, event, text, data) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING RETURNING id
       )
       INSERT INTO webhook_deliveries (event_id, webhook_id)
       SELECT e.id, w.id FROM e, webhooks w WHERE w.events @> jsonb_build_array($2::text)
       RETURNING id`,
      [event.id, event.event, event.text, JSON.stringify(event.data)],
    );
    return rows.length;
  }

  async exists(eventId: string): Promise<boolean> {
    const [row] = (await this.dataSource.query('SELECT EXISTS (SELECT 1 FROM alert_events WHERE id = $1) AS found', [eventId])) as Array<{ found: boolean }>;
    return row?.found === true;
  }

  /**
   * Takes up to `limit` due deliveries for this replica: each one's attempt is counted and its next
   * attempt pushed past the attempt's time-out, so no other replica takes it meanwhile, and one
   * whose replica dies mid-attempt is taken again after that. SKIP LOCKED: replicas claiming at the
   * same moment take different rows.
   */
  async claim(limit: number, attemptTimeoutMs: number): Promise<ClaimedDelivery[]> {
    // An UPDATE inside a SELECT: both drivers (pg, PGlite) then answer plain rows.
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `WITH claimed AS (
         UPDATE webhook_deliveries d
            SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => $2::double precision / 1000)
           FROM (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()
                  ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED) due,
                alert_events e, webhooks w
          WHERE d.id = due.id AND e.id = d.event_id AND w.id = d.webhook_id
          RETURNING d.id::text AS id, d.attempts, e.id AS event_id, e.event, e.text, e.data, w.id AS webhook_id, w.url, w.secret
       )
       SELECT * FROM claimed`,
      [limit, attemptTimeoutMs + LEASE_MARGIN_MS],
    );
    return rows.map((row) => ({
      id: String(row['id']),
      attempt: Number(row['attempts']),
      eventId: String(row['event_id']),
      event: row['event'] as AlertEventName,
      text: String(row['text']),
      data: (typeof row['data'] === 'string' ? JSON.parse(row['data']) : row['data']) as Record<string, unknown>,
      webhookId: String(row['webhook_id']),
      url: String(row['url']),
      sealedSecret: String(row['secret']),
    }));
  }

  /**
   * Records an attempt's outcome and its audit entry in one statement: the delivery's state and the
   * audit log never disagree. The entry's actor is the gateway itself (method `system`).
   */
  async finish(delivery: ClaimedDelivery, outcome: AttemptOutcome, audit: Record<string, unknown>): Promise<void> {
    await this.dataSource.query(
      `WITH d AS (
         UPDATE webhook_deliveries
            SET status = $2, last_status = $3, last_error = $4,
                next_attempt_at = CASE WHEN $5::double precision IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $5::double precision / 1000) END,
                finished_at = CASE WHEN $2 = 'pending' THEN NULL ELSE now() END
          WHERE id = $1::bigint RETURNING id
       )
       INSERT INTO audit_log (actor, method, action, target_type, target_id, target_name, details)
       SELECT 'rosetta', 'system', 'webhook.deliver', 'webhook', $6::text, $7::text, $8::jsonb FROM d`,
      [delivery.id, outcome.status, outcome.httpStatus, outcome.error, outcome.retryInMs ?? null, delivery.webhookId, delivery.eventId, JSON.stringify(audit)],
    );
  }

  /** Forgets old events (and their deliveries) that nothing is still trying to deliver. */
  async prune(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM alert_events e WHERE e.created_at < now() - make_interval(days => $1)
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')`,
      [EVENT_RETENTION_DAYS],
    );
  }
}
