import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { encodeCursor, ledgerPageQuery, type LedgerPageFilter } from './ledger-page';
import type { UsageRow } from './usage-entry';
import { reportColumns, type UsageDimension, type UsageReportFilter, type UsageReportRow } from './usage-report';
import { usdString } from './usd';

/** How each dimension is selected and grouped; names are joined in after grouping. */
const DIMENSION_SQL: Readonly<Record<UsageDimension, string>> = {
  day: "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day",
  key: 'api_key_id',
  team: 'team_id',
  model: 'served_model',
  provider: 'provider',
  hour: `to_char(date_trunc('hour', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24:00:00"Z"') AS hour`,
};
/** Dimensions computed in the select list, grouped and ordered by their alias. */
const TIME_DIMENSIONS = new Set<UsageDimension>(['day', 'hour']);

/** A ledger row with the key's and the team's current names. */
const LEDGER_ROW = `SELECT r.*, k.name AS key_name, t.name AS team_name
  FROM request_log r LEFT JOIN api_keys k ON k.id = r.api_key_id LEFT JOIN teams t ON t.id = r.team_id`;

const COLUMNS = [
  'request_id', 'api_key_id', 'dialect', 'requested_model', 'served_model', 'provider', 'status', 'error_type', 'input_tokens',
  'output_tokens', 'cached_tokens', 'reasoning_tokens', 'cost_usd', 'latency_ms', 'ttft_ms', 'streamed', 'attempts', 'route', 'created_at',
  'client_request_id', 'team_id', 'uncharged_usd', 'cache', 'saved_usd', 'cache_write_tokens',
] as const;

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
        row.cache, row.savedUsd?.toFixed(12) ?? null, row.cacheWriteTokens,
      ];
      const placeholders = values.map((value) => `$${params.push(value)}`);
      return `(${placeholders.join(', ')})`;
    });
    // Ids are the gateway's own, unique and unguessable; the conflict clause only makes a retried
    // batch (one whose first write did land) idempotent.
    await this.dataSource.query(
      `INSERT INTO request_log (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT (request_id) DO NOTHING`,
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

  /** What a key or a team spent since `since` (USD), from the ledger's (key|team, time) indexes. */
  async spentSince(scope: 'key' | 'team', id: string, since: Date): Promise<number> {
    const column = scope === 'key' ? 'api_key_id' : 'team_id';
    const rows: { spent: string | null }[] = await this.dataSource.query(
      `SELECT sum(cost_usd)::text AS spent FROM request_log WHERE ${column} = $1 AND created_at >= $2`,
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

  /**
   * Totals per the dimensions asked for over [from, to): one scan of the ledger by `created_at`
   * (or by key or team and time when filtered, from the matching index), grouped first, with key
   * and team names joined to the few grouped rows afterwards.
   */
  async report(filter: UsageReportFilter): Promise<UsageReportRow[]> {
    const params: unknown[] = [filter.from, filter.to];
    const where = ['created_at >= $1', 'created_at < $2'];
    if (filter.apiKeyId) where.push(`api_key_id = $${params.push(filter.apiKeyId)}`);
    if (filter.teamId) where.push(`team_id = $${params.push(filter.teamId)}`);
    const dimensions = filter.groupBy.map((d) => DIMENSION_SQL[d]);
    const grouped = filter.groupBy.map((d) => (TIME_DIMENSIONS.has(d) ? d : DIMENSION_SQL[d]));
    const names = [
      filter.groupBy.includes('key') ? 'k.name AS key_name' : null,
      filter.groupBy.includes('team') ? 't.name AS team_name' : null,
    ].filter((column) => column !== null);
    const joins = [
      filter.groupBy.includes('key') ? 'LEFT JOIN api_keys k ON k.id = g.api_key_id' : '',
      filter.groupBy.includes('team') ? 'LEFT JOIN teams t ON t.id = g.team_id' : '',
    ].join(' ');
    // Days in order, then the biggest spenders first; ids last so the order is stable.
    const order = [...filter.groupBy.filter((d) => TIME_DIMENSIONS.has(d)).map((d) => `g.${d}`), 'g.cost_usd DESC', 'g.requests DESC', ...grouped.filter((c) => c !== 'day' && c !== 'hour').map((c) => `g.${c}`)]
      .filter((column) => column !== null)
      .join(', ');
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `WITH g AS (
         SELECT ${dimensions.join(', ')},
                count(*)::bigint AS requests,
                count(*) FILTER (WHERE status >= 400 OR error_type IS NOT NULL)::bigint AS errors,
                coalesce(sum(input_tokens), 0)::bigint AS input_tokens,
                coalesce(sum(output_tokens), 0)::bigint AS output_tokens,
                coalesce(sum(cached_tokens), 0)::bigint AS cached_tokens,
                coalesce(sum(reasoning_tokens), 0)::bigint AS reasoning_tokens,
                round(coalesce(sum(cost_usd), 0), 9) AS cost_usd,
                count(*) FILTER (WHERE cache = 'hit')::bigint AS cache_hits,
                round(coalesce(sum(saved_usd), 0), 9) AS saved_usd
           FROM request_log
          WHERE ${where.join(' AND ')}
          GROUP BY ${grouped.join(', ')}
       )
       SELECT g.*${names.map((n) => `, ${n}`).join('')}, g.cost_usd::text AS cost_text, g.saved_usd::text AS saved_text FROM g ${joins} ORDER BY ${order}`,
      params,
    );
    return rows.map((row) => reportRow(filter.groupBy, row));
  }
}

function reportRow(groupBy: readonly UsageDimension[], row: Record<string, unknown>): UsageReportRow {
  const out: UsageReportRow = {
    requests: Number(row['requests']),
    errors: Number(row['errors']),
    input_tokens: Number(row['input_tokens']),
    output_tokens: Number(row['output_tokens']),
    cached_tokens: Number(row['cached_tokens']),
    reasoning_tokens: Number(row['reasoning_tokens']),
    cost_usd: usdString(Number(row['cost_text'])),
    cache_hits: Number(row['cache_hits']),
    saved_usd: usdString(Number(row['saved_text'])),
  };
  const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
  for (const dimension of groupBy) {
    if (dimension === 'day') out.day = String(row['day']);
    if (dimension === 'key') Object.assign(out, { api_key_id: text(row['api_key_id']), key_name: text(row['key_name']) });
    if (dimension === 'team') Object.assign(out, { team_id: text(row['team_id']), team_name: text(row['team_name']) });
    if (dimension === 'model') out.served_model = text(row['served_model']);
    if (dimension === 'provider') out.provider = text(row['provider']);
    if (dimension === 'hour') out.hour = String(row['hour']);
  }
  // Dimensions first, in the order asked, then the totals: the JSON reads like the CSV.
  return Object.fromEntries(reportColumns(groupBy).map((column) => [column, out[column]])) as unknown as UsageReportRow;
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
