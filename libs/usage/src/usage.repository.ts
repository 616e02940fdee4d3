import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { decodeCursor, encodeCursor, ledgerPageQuery, type LedgerPageFilter } from './ledger-page';
import type { UsageRow } from './usage-entry';
import { usdString } from './usd';

/** A ledger row with the key's and the team's current names. */
const LEDGER_ROW = `SELECT r.*, k.name AS key_name, t.name AS team_name
  FROM request_log r LEFT JOIN api_keys k ON k.id = r.api_key_id LEFT JOIN teams t ON t.id = r.team_id`;

const COLUMNS = [
  'request_id', 'api_key_id', 'dialect', 'requested_model', 'served_model', 'provider', 'status', 'error_type', 'input_tokens',
  'output_tokens', 'cached_tokens', 'reasoning_tokens', 'cost_usd', 'latency_ms', 'ttft_ms', 'streamed', 'attempts', 'route', 'created_at',
  'client_request_id', 'team_id', 'uncharged_usd', 'cache', 'saved_usd', 'cache_write_tokens', 'guardrails', 'end_user', 'tags',
] as const;

/** Rows per keyset page of an export: a few hundred kilobytes of JSON. */
const EXPORT_PAGE_ROWS = 500;

/** The only place that touches request_log. Inserts are one statement per batch. */
@Injectable()
export class UsageRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insertBatch(rows: UsageRow[]): Promise<void> {
    if (rows.length === 0) return;
    const params: unknown[] = [];
    const tuples = rows.map((row) => {
      const values = [
        row.requestId, row.apiKeyId, row.dialect, row.requestedModel, row.servedModel, row.provider, row.status, row.errorType,
        row.inputTokens, row.outputTokens, row.cachedTokens, row.reasoningTokens, row.costUsd.toFixed(12), row.latencyMs, row.ttftMs,
        row.streamed, row.attempts, row.route, row.createdAt, row.clientRequestId, row.teamId, row.unchargedUsd?.toFixed(12) ?? null,
        row.cache, row.savedUsd?.toFixed(12) ?? null, row.cacheWriteTokens, row.guardrails ? JSON.stringify(row.guardrails) : null, row.endUser ?? null, row.tags ?? null,
      ];
      const placeholders = values.map((value) => `$${params.push(value)}`);
      return `(${placeholders.join(', ')})`;
    });
    // Ids are the gateway's own, unique and unguessable; the conflict clause makes a retried batch
    // (one whose first write did land) idempotent, and a recovery row for a request whose own row
    // landed late collide with it: both carry the request's start time, the partition key.
    await this.dataSource.query(
      `INSERT INTO request_log (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT (request_id, created_at) DO NOTHING`,
      params,
    );
  }

  /**
   * Which ledger this is: the PostgreSQL cluster's system identifier and the database's name. Two
   * deployments may share a Redis but never a ledger; replicas of one agree on this.
   */
  async identity(): Promise<string> {
    const [found] = (await this.dataSource.query('SELECT current_database() AS db, (SELECT system_identifier::text FROM pg_control_system()) AS system')) as { db: string; system: string }[];
    return `${found!.system}/${found!.db}`;
  }

  /**
   * A row the database refused for good, kept as its JSON text beside the refusal (the table takes
   * any text), so it can be looked at and written again by hand; a second refusal is idempotent.
   */
  async setAside(row: UsageRow, reason: string): Promise<void> {
    await this.dataSource.query(
      'INSERT INTO request_log_rejected (request_id, row_json, error) VALUES ($1, $2, $3) ON CONFLICT (request_id) DO NOTHING',
      [row.requestId, JSON.stringify(row), JSON.stringify(reason).slice(1, -1)],
    );
  }

  /** One request by the gateway's id (the primary key), with key and team names; costs as decimal strings. */
  async find(requestId: string): Promise<Record<string, unknown> | null> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(`${LEDGER_ROW} WHERE r.request_id = $1`, [requestId]);
    return rows[0] ? presentLedgerRow(rows[0]) : null;
  }

  /**
   * What a key or a team spent since `since` (USD), from the ledger's (key|team, time) indexes,
   * plus the daily rollup of the days whose rows went to LEDGER_RETENTION_DAYS (a whole day each:
   * budget periods begin at UTC midnight), so a `total` budget is not refunded by retention.
   */
  async spentSince(scope: 'key' | 'team', id: string, since: Date): Promise<number> {
    const column = scope === 'key' ? 'api_key_id' : 'team_id';
    const rows: { spent: string | null }[] = await this.dataSource.query(
      `SELECT ((SELECT coalesce(sum(cost_usd), 0) FROM request_log WHERE ${column} = $1 AND created_at >= $2)
             + (SELECT coalesce(sum(d.cost_usd), 0) FROM request_log_daily d
                 WHERE d.${column} = $1 AND d.day >= ($2::timestamptz AT TIME ZONE 'UTC')::date
                   AND d.day IN (SELECT day FROM request_log_days WHERE dropped)))::text AS spent`,
      [id, since],
    );
    return Number(rows[0]?.spent ?? 0);
  }

  /** Every request a caller sent with this x-request-id, newest first (at most `limit`). */
  async findByClientId(clientRequestId: string, limit = 100): Promise<Record<string, unknown>[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `${LEDGER_ROW} WHERE r.client_request_id = $1 ORDER BY r.created_at DESC LIMIT $2`,
      [clientRequestId, limit],
    );
    return rows.map(presentLedgerRow);
  }

  /**
   * Every row under the filter's conditions, newest first, a keyset page at a time: a page is read
   * only when the consumer asks for the next one, so an export of any size holds one page in
   * memory and no transaction or cursor open (on PGlite, whose one session everything shares, too).
   */
  async *exportPages(filter: Omit<LedgerPageFilter, 'limit' | 'before'>, pageSize = EXPORT_PAGE_ROWS): AsyncGenerator<Record<string, unknown>[]> {
    let before: LedgerPageFilter['before'];
    for (;;) {
      const page = await this.page({ ...filter, limit: pageSize, ...(before ? { before } : {}) });
      if (page.data.length > 0) yield page.data;
      if (!page.nextCursor) return;
      before = decodeCursor(page.nextCursor);
    }
  }

  /**
   * Ledger rows newest first, filtered, with key and team names (see `ledgerPageQuery`), and the
   * cursor of the next, older page when there is one.
   */
  async page(filter: LedgerPageFilter): Promise<{ data: Record<string, unknown>[]; nextCursor: string | null }> {
    const { sql, params } = ledgerPageQuery(filter);
    const rows: Record<string, unknown>[] = await this.dataSource.query(sql, params);
    const data = rows.slice(0, filter.limit);
    const last = data.at(-1);
    const nextCursor = rows.length > filter.limit && last ? encodeCursor({ time: String(last['cursor_time']), requestId: String(last['request_id']) }) : null;
    return { data: data.map(({ cursor_time: _time, ...row }) => presentLedgerRow(row)), nextCursor };
  }
}

/** A ledger row as the admin API shows it: cost as a decimal string, times as ISO 8601. */
export function presentLedgerRow(row: Record<string, unknown>): Record<string, unknown> {
  const created = row['created_at'];
  return {
    ...row,
    cost_usd: usdString(Number(row['cost_usd'] ?? 0)),
    uncharged_usd: row['uncharged_usd'] === null || row['uncharged_usd'] === undefined ? null : usdString(Number(row['uncharged_usd'])),
    saved_usd: row['saved_usd'] === null || row['saved_usd'] === undefined ? null : usdString(Number(row['saved_usd'])),
    created_at: created instanceof Date ? created.toISOString() : created,
  };
}
