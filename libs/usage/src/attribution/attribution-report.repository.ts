import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LedgerRollupRepository } from '../ledger/ledger-rollup.repository';
import { RAW_SUMS } from '../ledger/ledger-sql';
import { runReportStatement } from '../report-statement';
import { reportColumns, reportTotals, type ReportDimension, type UsageReportFilter, type UsageReportRow } from '../usage-report';
import {
  groupedSql, groupKey, isLedByDay, keyItems, keyList, leadingDayBound, pageStart, ROLLUP_PART_SUMS, shownItems, type ReportPage, type ReportPageResult, type ReportPart,
} from '../usage-report-order';
import { planUsageReport, wholeDays, type UsageReportPlan } from '../usage-report-plan';
import { tagRows } from './attribution-rollup-sql';

/** A report grouped by end user or by tag (one of them), with any of the other dimensions. */
export type AttributionReportFilter = Omit<UsageReportFilter, 'groupBy'> & { groupBy: readonly ReportDimension[] };

/** Each dimension over raw rows (`r`, with `t.tag` for tags) and over an attribution rollup. */
const DIMENSIONS: Readonly<Record<ReportDimension, { raw: string; rollup: string }>> = {
  day: { raw: "(r.created_at AT TIME ZONE 'UTC')::date", rollup: 'day' },
  hour: { raw: "date_trunc('hour', r.created_at AT TIME ZONE 'UTC')", rollup: '' },
  key: { raw: 'r.api_key_id', rollup: 'api_key_id' },
  team: { raw: 'r.team_id', rollup: 'team_id' },
  model: { raw: 'r.served_model', rollup: 'served_model' },
  provider: { raw: 'r.provider', rollup: 'provider' },
  end_user: { raw: 'r.end_user', rollup: 'end_user' },
  tag: { raw: 't.tag', rollup: 'tag' },
};
/** What RAW_SUMS reads of a ledger row `r`. */
const RAW_COLUMNS = ['status', 'error_type', 'input_tokens', 'output_tokens', 'cached_tokens', 'reasoning_tokens', 'cost_usd', 'cache', 'saved_usd'].map((c) => `r.${c}`).join(', ');
const ROLLUP_COLUMNS = 'requests, errors, input_tokens, output_tokens, cached_tokens, reasoning_tokens, cost_usd, cache_hits, saved_usd';

/**
 * `GET /admin/usage?group_by=end_user|tag` (decision 0033), read as the other groupings are
 * (decisions 0027 and 0034) but from the attribution rollups, which the main rollup's run keeps in
 * step: whole closed days from `request_log_daily_end_user` or `request_log_daily_tag`, the rest of
 * the range from the raw ledger, merged in one statement. By tag, a request with several tags is
 * in each tag's row (rows add up to more than the ledger); one without tags is in the null tag's row.
 */
@Injectable()
export class AttributionReportRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rollups: LedgerRollupRepository,
  ) {}

  /** Every group of the report, in its order. */
  async report(filter: AttributionReportFilter): Promise<UsageReportRow[]> {
    return this.read(filter);
  }

  /** One page of the report: at most `page.limit` groups after `page.after` (decision 0034). */
  async page(filter: AttributionReportFilter, page: ReportPage): Promise<ReportPageResult> {
    const rows = await this.read(filter, page);
    const data = rows.slice(0, page.limit);
    return { data, next: rows.length > page.limit ? groupKey(filter.groupBy, data[data.length - 1]!) : null };
  }

  private async read(filter: AttributionReportFilter, page?: ReportPage): Promise<UsageReportRow[]> {
    const days = filter.groupBy.includes('hour') ? undefined : wholeDays(filter.from, filter.to);
    const plan = planUsageReport(filter.from, filter.to, days ? await this.rollups.rolledDays(days.first, days.end) : []);
    const { sql, params } = attributionReportQuery(filter, plan, page);
    const rows = await runReportStatement(this.dataSource, sql, params, page !== undefined && isLedByDay(filter.groupBy));
    return rows.map((row) => reportRow(filter.groupBy, row));
  }
}

/** What a report's raw rows are read from: the ledger rows `r`, each tag a row `t(tag)` when by tag. */
function rawFrom(byTag: boolean, rows: string): string {
  return byTag ? `${rows} CROSS JOIN LATERAL ${tagRows('r.tags')} AS t(tag)` : rows;
}

export function attributionReportQuery(filter: AttributionReportFilter, plan: UsageReportPlan, page?: ReportPage): { sql: string; params: unknown[] } {
  const byTag = filter.groupBy.includes('tag');
  const table = byTag ? 'request_log_daily_tag' : 'request_log_daily_end_user';
  const params: unknown[] = [];
  const param = (value: unknown): string => `$${params.push(value)}`;
  const conditions: string[] = [];
  if (filter.apiKeyId) conditions.push(`api_key_id = ${param(filter.apiKeyId)}`);
  if (filter.teamId) conditions.push(`team_id = ${param(filter.teamId)}`);
  const and = conditions.map((c) => ` AND ${c}`).join('');
  const rawKeys = keyItems(filter.groupBy, (d) => DIMENSIONS[d].raw);
  const rawPart = (rows: string, where: string): ReportPart => ({ rows: `SELECT ${rawKeys}, ${RAW_COLUMNS} FROM ${rawFrom(byTag, rows)} WHERE ${where}`, sums: RAW_SUMS });
  const parts = plan.rawRanges.map((range) => rawPart(`(SELECT * FROM request_log WHERE created_at >= ${param(range.from)} AND created_at < ${param(range.to)}${and}) r`, 'true'));
  let ctes = '';
  if (plan.rolledDays.length > 0) {
    ctes = `planned AS (SELECT unnest(${param(plan.rolledDays)}::date[]) AS day),
      fresh AS (SELECT p.day FROM planned p JOIN request_log_days s ON s.day = p.day AND s.rolled),
      stale AS (SELECT day FROM planned EXCEPT SELECT day FROM fresh), `;
    const days = [...plan.rolledDays].sort();
    const bound = isLedByDay(filter.groupBy) ? leadingDayBound('day', days[0]!, days[days.length - 1]!, param) : '';
    const staleRows = `stale s CROSS JOIN LATERAL (
          SELECT * FROM request_log WHERE created_at >= s.day::timestamp AT TIME ZONE 'UTC' AND created_at < (s.day + 1)::timestamp AT TIME ZONE 'UTC'${and} OFFSET 0
        ) r`;
    parts.push(
      {
        rows: `SELECT ${keyItems(filter.groupBy, (d) => DIMENSIONS[d].rollup)}, ${ROLLUP_COLUMNS} FROM ${table} WHERE day = ANY(ARRAY(SELECT day FROM fresh))${bound}${and}`,
        sums: ROLLUP_PART_SUMS,
      },
      rawPart(staleRows, 'true'),
    );
  }
  if (parts.length === 0) parts.push(rawPart('(SELECT * FROM request_log WHERE false) r', 'true'));
  const paging = page ? { limit: param(page.limit + 1), ...(page.after ? { after: pageStart(filter.groupBy, page.after, param) } : {}) } : undefined;
  const names = [filter.groupBy.includes('key') ? ', k.name AS key_name' : '', filter.groupBy.includes('team') ? ', t.name AS team_name' : ''].join('');
  const joins = [
    filter.groupBy.includes('key') ? 'LEFT JOIN api_keys k ON k.id = g.api_key_id' : '',
    filter.groupBy.includes('team') ? 'LEFT JOIN teams t ON t.id = g.team_id' : '',
  ].join(' ');
  const sql = `WITH ${ctes}g AS (${groupedSql(filter.groupBy, parts, paging)})
    SELECT ${shownItems(filter.groupBy)}, g.requests, g.errors, g.input_tokens, g.output_tokens, g.cached_tokens, g.reasoning_tokens, g.cache_hits${names},
           g.cost_usd::text AS cost_text, g.saved_usd::text AS saved_text
      FROM g ${joins} ORDER BY ${keyList(filter.groupBy, 'g.')}`;
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
