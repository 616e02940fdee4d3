import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { UsageRow } from './usage-entry';

const COLUMNS = [
  'request_id', 'api_key_id', 'dialect', 'requested_model', 'served_model', 'provider', 'status', 'error_type', 'input_tokens',
  'output_tokens', 'cached_tokens', 'reasoning_tokens', 'cost_usd', 'latency_ms', 'ttft_ms', 'streamed', 'attempts', 'route', 'created_at',
] as const;

export interface UsageAggregate {
  day: string;
  api_key_id: string | null;
  served_model: string | null;
  requests: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

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
        row.streamed, row.attempts, row.route, row.createdAt,
      ];
      const placeholders = values.map((value) => `$${params.push(value)}`);
      return `(${placeholders.join(', ')})`;
    });
    await this.dataSource.query(
      `INSERT INTO request_log (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT (request_id) DO NOTHING`,
      params,
    );
  }

  async find(requestId: string): Promise<Record<string, unknown> | null> {
    const rows: Record<string, unknown>[] = await this.dataSource.query('SELECT * FROM request_log WHERE request_id = $1', [requestId]);
    return rows[0] ?? null;
  }

  async aggregate(filter: { from: Date; to: Date; apiKeyId?: string }): Promise<UsageAggregate[]> {
    const params: unknown[] = [filter.from, filter.to];
    const byKey = filter.apiKeyId ? `AND api_key_id = $${params.push(filter.apiKeyId)}` : '';
    return this.dataSource.query(
      `SELECT to_char(date_trunc('day', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, api_key_id, served_model,
              count(*)::int AS requests, count(*) FILTER (WHERE status >= 400 OR error_type IS NOT NULL)::int AS errors,
              sum(input_tokens)::int AS input_tokens, sum(output_tokens)::int AS output_tokens, sum(cost_usd)::float8 AS cost_usd
         FROM request_log
        WHERE created_at >= $1 AND created_at < $2 ${byKey}
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      params,
    );
  }
}
