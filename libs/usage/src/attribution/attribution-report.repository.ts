import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LedgerRollupRepository } from '../ledger/ledger-rollup.repository';
import { RAW_SUMS, sumsOfSums } from '../ledger/ledger-sql';
import { reportColumns, reportTotals, type ReportDimension, type UsageReportFilter, type UsageReportRow } from '../usage-report';
import { planUsageReport, wholeDays, type UsageReportPlan } from '../usage-report-plan';
import { tagRows } from './attribution-rollup-sql';

/** A report grouped by end user or by tag (one of them), with any of the other dimensions. */
export type AttributionReportFilter = Omit<UsageReportFilter, 'groupBy'> & { groupBy: readonly ReportDimension[] };

/** Each dimension over raw rows (`r`, with `t.tag` for tags) and over an attribution rollup. */
const DIMENSIONS: Readonly<Record<ReportDimension, { raw: string; rollup: string; shown: string }>> = {
  day: { raw: "(r.created_at AT TIME ZONE 'UTC')::date AS day", rollup: 'day', shown: "to_char(g.day, 'YYYY-MM-DD') AS day" },
  hour: { raw: "date_trunc('hour', r.created_at AT TIME ZONE 'UTC') AS hour", rollup: '', shown: `to_char(g.hour, 'YYYY-MM-DD"T"HH24:00:00"Z"') AS hour` },
  key: { raw: 'r.api_key_id', rollup: 'api_key_id', shown: 'g.api_key_id' },
  team: { raw: 'r.team_id', rollup: 'team_id', shown: 'g.team_id' },
  model: { raw: 'r.served_model', rollup: 'served_model', shown: 'g.served_model' },
  provider: { raw: 'r.provider', rollup: 'provider', shown: 'g.provider' },
  end_user: { raw: 'r.end_user', rollup: 'end_user', shown: 'g.end_user' },
  tag: { raw: 't.tag', rollup: 'tag', shown: 'g.tag' },
};
const COLUMN: Readonly<Record<ReportDimension, string>> = {
  day: 'day', hour: 'hour', key: 'api_key_id', team: 'team_id', model: 'served_model', provider: 'provider', end_user: 'end_user', tag: 'tag',
};
const TIME_DIMENSIONS = new Set<ReportDimension>(['day', 'hour']);
const ROLLUP_SUMS = 'requests, errors, input_tokens, output_tokens, cached_tokens, reasoning_tokens, cost_usd, cache_hits, saved_usd';

/**
 * `GET /admin/usage?group_by=end_user|tag` (decision 0033), read as the other groupings are
 * (decision 0027) but from the attribution rollups, which the main rollup's run keeps in step: whole
 * closed days from `request_log_daily_end_user` or `request_log_daily_tag`, the rest of the range
 * from the raw ledger, merged in one statement. By tag, a request with several tags is in each
 * tag's row (rows add up to more than the ledger); one without tags is in the null tag's row.
 */
@Injectable()
export class AttributionReportRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rollups: LedgerRollupRepository,
  ) {}

  async report(filter: AttributionReportFilter): Promise<UsageReportRow[]> {
    const days = filter.groupBy.includes('hour') ? undefined : wholeDays(filter.from, filter.to);
    const plan = planUsageReport(filter.from, filter.to, days ? await this.rollups.rolledDays(days.first, days.end) : []);
    const { sql, params } = attributionReportQuery(filter, plan);
    const runner = this.dataSource.createQueryRunner();
    try {
      // As for the main report: worst-case estimates would cross jit_above_cost for a quick query.
      await runner.query('SET jit = off');
      const rows = (await runner.query(sql, params)) as Record<string, unknown>[];
      return rows.map((row) => reportRow(filter.groupBy, row));
    } finally {
      await runner.query('RESET jit').catch(() => undefined);
      await runner.release();
    }
  }
}

/** What a report's raw rows are read from: the ledger rows `r`, each tag a row `t(tag)` when by tag. */
function rawFrom(byTag: boolean, rows: string): string {
  return byTag ? `${rows} CROSS JOIN LATERAL ${tagRows('r.tags')} AS t(tag)` : rows;
}

export function attributionReportQuery(filter: AttributionReportFilter, plan: UsageReportPlan): { sql: string; params: unknown[] } {
  const byTag = filter.groupBy.includes('tag');
  const table = byTag ? 'request_log_daily_tag' : 'request_log_daily_end_user';
  const params: unknown[] = [];
  const param = (value: unknown): string => `$${params.push(value)}`;
  const conditions: string[] = [];
  if (filter.apiKeyId) conditions.push(`api_key_id = ${param(filter.apiKeyId)}`);
  if (filter.teamId) conditions.push(`team_id = ${param(filter.teamId)}`);
  const and = conditions.map((c) => ` AND ${c}`).join('');
  const positions = filter.groupBy.map((_, i) => i + 1).join(', ');
  const raw = filter.groupBy.map((d) => DIMENSIONS[d].raw).join(', ');
  const parts = plan.rawRanges.map(
    (range) =>
      `SELECT ${raw}, ${RAW_SUMS} FROM ${rawFrom(byTag, `(SELECT * FROM request_log WHERE created_at >= ${param(range.from)} AND created_at < ${param(range.to)}${and}) r`)} GROUP BY ${positions}`,
  );
  let ctes = '';
  if (plan.rolledDays.length > 0) {
    ctes = `planned AS (SELECT unnest(${param(plan.rolledDays)}::date[]) AS day),
      fresh AS (SELECT p.day FROM planned p JOIN request_log_days s ON s.day = p.day AND s.rolled),
      stale AS (SELECT day FROM planned EXCEPT SELECT day FROM fresh), `;
    const rollup = filter.groupBy.map((d) => DIMENSIONS[d].rollup).join(', ');
    const staleRows = `stale s CROSS JOIN LATERAL (
          SELECT * FROM request_log WHERE created_at >= s.day::timestamp AT TIME ZONE 'UTC' AND created_at < (s.day + 1)::timestamp AT TIME ZONE 'UTC'${and} OFFSET 0
        ) r`;
    parts.push(`SELECT ${rollup}, ${ROLLUP_SUMS} FROM ${table} WHERE day IN (SELECT day FROM fresh)${and}`, `SELECT ${raw}, ${RAW_SUMS} FROM ${rawFrom(byTag, staleRows)} GROUP BY ${positions}`);
  }
  const shown = filter.groupBy.map((d) => DIMENSIONS[d].shown).join(', ');
  const names = [filter.groupBy.includes('key') ? ', k.name AS key_name' : '', filter.groupBy.includes('team') ? ', t.name AS team_name' : ''].join('');
  const joins = [
    filter.groupBy.includes('key') ? 'LEFT JOIN api_keys k ON k.id = g.api_key_id' : '',
    filter.groupBy.includes('team') ? 'LEFT JOIN teams t ON t.id = g.team_id' : '',
  ].join(' ');
  const order = [
    ...filter.groupBy.filter((d) => TIME_DIMENSIONS.has(d)).map((d) => `g.${d}`),
    'g.cost_usd DESC',
    'g.requests DESC',
    ...filter.groupBy.filter((d) => !TIME_DIMENSIONS.has(d)).map((d) => `g.${COLUMN[d]} NULLS LAST`),
  ].join(', ');
  const empty = `SELECT ${raw}, ${RAW_SUMS} FROM ${rawFrom(byTag, '(SELECT * FROM request_log WHERE false) r')} GROUP BY ${positions}`;
  const source = parts.length > 0 ? parts.map((part) => `(${part})`).join(' UNION ALL ') : empty;
  const columns = filter.groupBy.map((d) => COLUMN[d]).join(', ');
  const sql = `WITH ${ctes}src (${columns}, ${ROLLUP_SUMS}) AS (${source}),
      g AS (SELECT ${columns}, ${sumsOfSums(9)} FROM src GROUP BY ${positions})
    SELECT ${shown}, g.requests, g.errors, g.input_tokens, g.output_tokens, g.cached_tokens, g.reasoning_tokens, g.cache_hits${names},
           g.cost_usd::text AS cost_text, g.saved_usd::text AS saved_text
      FROM g ${joins} ORDER BY ${order}`;
  return { sql, params };
}

function reportRow(groupBy: readonly ReportDimension[], row: Record<string, unknown>): UsageReportRow {
  const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
  const out: UsageReportRow = {
    ...reportTotals(row),
    day: text(row['day']) ?? undefined,
    hour: text(row['hour']) ?? undefined,
    api_key_id: text(row['api_key_id']),
    key_name: text(row['key_name']),
    team_id: text(row['team_id']),
    team_name: text(row['team_name']),
    served_model: text(row['served_model']),
    provider: text(row['provider']),
    end_user: text(row['end_user']),
    tag: text(row['tag']),
  };
  // Dimensions first, in the order asked, then the totals: the JSON reads like the CSV.
  return Object.fromEntries(reportColumns(groupBy).map((column) => [column, out[column]])) as unknown as UsageReportRow;
}
