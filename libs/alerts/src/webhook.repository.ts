import { Inject, Injectable } from '@nestjs/common';
import { managerOf } from '@rosetta/persistence';
import { APP_LOGGER, type AppLogger, SECRET_BOX, type SecretBox } from '@rosetta/platform';
import { DataSource, type EntityManager } from 'typeorm';
import type { AlertEventName } from './alert-event';

/** The last attempt at delivering anything to a webhook. */
export interface LastDelivery {
  status: 'pending' | 'delivered' | 'failed';
  event_id: string;
  attempts: number;
  http_status: number | null;
  error: string | null;
  at: string;
}

/** A webhook as the admin API shows it: never its secret. */
export interface WebhookRecord {
  id: string;
  url: string;
  events: AlertEventName[];
  createdAt: Date;
  lastDelivery: LastDelivery | null;
}

/** Where a webhook's signing secret is stored, as the associated data its ciphertext is bound to. */
export function webhookSecretBinding(id: string): string {
  return `webhooks/${id}/secret`;
}

/**
 * The only place that touches `webhooks`. The signing secret is sealed on the way in (SecretBox,
 * decision 0008) and opened only to sign a delivery (AlertOutboxRepository), never returned.
 */
@Injectable()
export class WebhookRepository {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  /** Inside the admin change's transaction (with its audit entry) when there is one. */
  private get db(): EntityManager {
    return managerOf(this.dataSource);
  }

  async insert(webhook: { id: string; url: string; events: AlertEventName[]; secret: string }): Promise<WebhookRecord> {
    const sealed = this.secrets.seal(webhook.secret, webhookSecretBinding(webhook.id));
    const rows: Array<{ created_at: Date | string }> = await this.db.query('INSERT INTO webhooks (id, url, events, secret) VALUES ($1, $2, $3, $4) RETURNING created_at', [
      webhook.id,
      webhook.url,
      JSON.stringify(webhook.events),
      sealed,
    ]);
    return { id: webhook.id, url: webhook.url, events: webhook.events, createdAt: new Date(rows[0]!.created_at), lastDelivery: null };
  }

  /** Every webhook, oldest first, with its last delivery. */
  async list(): Promise<WebhookRecord[]> {
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT w.id, w.url, w.events, w.created_at, d.status, d.event_id, d.attempts, d.last_status, d.last_error, coalesce(d.finished_at, d.created_at) AS at
         FROM webhooks w
         LEFT JOIN LATERAL (SELECT * FROM webhook_deliveries x WHERE x.webhook_id = w.id AND x.attempts > 0 ORDER BY x.id DESC LIMIT 1) d ON true
        ORDER BY w.created_at, w.id`,
    );
    return rows.map(toRecord);
  }

  async count(): Promise<number> {
    const [row] = (await this.db.query('SELECT count(*)::int AS n FROM webhooks')) as Array<{ n: number }>;
    return row?.n ?? 0;
  }

  /** Deletes a webhook and its pending deliveries; false when there was none. */
  async delete(id: string): Promise<boolean> {
    // A DELETE inside a SELECT: both drivers (pg, PGlite) then answer plain rows.
    const rows: unknown[] = await this.db.query('WITH gone AS (DELETE FROM webhooks WHERE id = $1 RETURNING id) SELECT id FROM gone', [id]);
    return rows.length > 0;
  }

  /** Whether any webhook subscribes to `event` (the daily summary is not computed for nobody). */
  async anySubscribed(event: AlertEventName): Promise<boolean> {
    const [row] = (await this.db.query('SELECT EXISTS (SELECT 1 FROM webhooks WHERE events @> jsonb_build_array($1::text)) AS found', [event])) as Array<{ found: boolean }>;
    return row?.found === true;
  }

  /** The plain secret of a stored webhook; undefined when no key opens it (logged, never the value). */
  openSecret(id: string, sealed: string): string | undefined {
    try {
      return this.secrets.open(sealed, webhookSecretBinding(id));
    } catch (error) {
      this.logger.error({ webhook: id, reason: (error as Error).message }, 'alerts: a webhook secret cannot be opened (SECRETS_KEY changed?); its deliveries fail until it is added again');
      return undefined;
    }
  }

  /** Seals again every secret sealed under a previous key (SECRETS_KEY rotation, decision 0008). */
  async resealSecrets(): Promise<number> {
    if (!this.secrets.canSeal) return 0;
    const rows: Array<{ id: string; secret: string }> = await this.db.query('SELECT id, secret FROM webhooks');
    let changed = 0;
    for (const row of rows) {
      if (!this.secrets.needsReseal(row.secret)) continue;
      const plain = this.openSecret(row.id, row.secret);
      if (plain === undefined) continue;
      const done: unknown[] = await this.db.query('WITH u AS (UPDATE webhooks SET secret = $1 WHERE id = $2 AND secret = $3 RETURNING id) SELECT id FROM u', [
        this.secrets.seal(plain, webhookSecretBinding(row.id)),
        row.id,
        row.secret,
      ]);
      changed += done.length;
    }
    return changed;
  }
}

function toRecord(row: Record<string, unknown>): WebhookRecord {
  const events = (typeof row['events'] === 'string' ? JSON.parse(row['events']) : row['events']) as AlertEventName[];
  const last: LastDelivery | null =
    row['status'] == null
      ? null
      : {
          status: row['status'] as LastDelivery['status'],
          event_id: String(row['event_id']),
          attempts: Number(row['attempts']),
          http_status: row['last_status'] == null ? null : Number(row['last_status']),
          error: (row['last_error'] as string | null) ?? null,
          at: new Date(row['at'] as string).toISOString(),
        };
  return { id: String(row['id']), url: String(row['url']), events, createdAt: new Date(row['created_at'] as string), lastDelivery: last };
}
