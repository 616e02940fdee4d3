import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LedgerHoursRepository } from './ledger/ledger-hours.repository';
import { LedgerRollupRepository } from './ledger/ledger-rollup.repository';
import { RAW_SUMS, sumsOfSums } from './ledger/ledger-sql';
import { reportColumns, reportTotals, type UsageDimension, type UsageReportFilter, type UsageReportRow } from './usage-report';
import { planUsageReport, rollupTable, wholeDays, type UsageReportPlan } from './usage-report-plan';

/**
 * Each dimension over raw rows, over daily and hourly rollup rows (all yielding `column`), and as
 * the report shows the merged group: grouped by the plain value, formatted only for the rows answered.
 */
const DIMENSIONS: Readonly<Record<UsageDimension, { raw: string; daily: string; hourly: string; column: string; shown: string }>> = {
  day: { raw: "(created_at AT TIME ZONE 'UTC')::date AS day", daily: 'day', hourly: "(hour AT TIME ZONE 'UTC')::date AS day", column: 'day', shown: "to_char(g.day, 'YYYY-MM-DD') AS day" },
  hour: {
    raw: "date_trunc('hour', created_at AT TIME ZONE 'UTC') AS hour",
    daily: '',
    hourly: "hour AT TIME ZONE 'UTC' AS hour",
    column: 'hour',
    shown: `to_char(g.hour, 'YYYY-MM-DD"T"HH24:00:00"Z"') AS hour`,
  },
  key: { raw: 'api_key_id', daily: 'api_key_id', hourly: 'api_key_id', column: 'api_key_id', shown: 'g.api_key_id' },
  team: { raw: 'team_id', daily: 'team_id', hourly: 'team_id', column: 'team_id', shown: 'g.team_id' },
  model: { raw: 'served_model', daily: 'served_model', hourly: 'served_model', column: 'served_model', shown: 'g.served_model' },
  provider: { raw: 'provider', daily: 'provider', hourly: 'provider', column: 'provider', shown: 'g.provider' },
};
const TIME_DIMENSIONS = new Set<UsageDimension>(['day', 'hour']);
const ROLLUP_SUMS = 'requests, errors, input_tokens, output_tokens, cached_tokens, reasoning_tokens, cost_usd, cache_hits, saved_usd';

/**
 * The two rollups a report reads: their full table (rollupTable picks its smallest coarse copy that
 * serves the report), state table, unit column and a unit's time range.
 */
const ROLLUPS = {
  daily: { table: 'request_log_daily', state: 'request_log_days', unit: 'day', type: 'date', start: "s.day::timestamp AT TIME ZONE 'UTC'", end: "(s.day + 1)::timestamp AT TIME ZONE 'UTC'" },
  hourly: { table: 'request_log_hourly', state: 'request_log_hours', unit: 'hour', type: 'timestamptz', start: 's.hour', end: "s.hour + interval '1 hour'" },
} as const;

/**
 * Memory for the report's one grouping and sort: with PostgreSQL's default 4 MB the default
 * `day,key,model` week (~141k groups at the benchmark's shape) spilled both to disk. Set for the
 * statement on an admin endpoint; what it holds is bounded by the groups a report has.
 */
const REPORT_WORK_MEM = '64MB';

/**
 * `GET /admin/usage`'s totals (decision 0027): whole closed days from the daily rollup, closed
 * hours of the last days from the hourly one, the rest of the range (the hour in progress, an hour
 * cut by from/to, anything not rolled up yet) from the raw ledger, merged and grouped once, so the
 * answer equals a report over raw rows alone. Key and team names are joined to the grouped rows.
 */
@Injectable()
export class UsageReportRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rollups: LedgerRollupRepository,
    private readonly hourly: LedgerHoursRepository,
  ) {}

  async report(filter: UsageReportFilter): Promise<UsageReportRow[]> {
    const days = filter.groupBy.includes('hour') ? undefined : wholeDays(filter.from, filter.to);
    const rolledDays = days ? await this.rollups.rolledDays(days.first, days.end) : [];
    const plan = planUsageReport(filter.from, filter.to, rolledDays, await this.hourly.rolledHours(filter.from, filter.to));
    const { sql, params } = reportQuery(filter, plan);
    // The column order once per report, not once per row: the default report answers ~10^5 rows.
    const columns = reportColumns(filter.groupBy);
    return (await this.tuned(sql, params)).map((row) => reportRow(filter.groupBy, columns, row));
  }

  /**
   * The statement with JIT compilation off and room to group in memory. JIT: its estimates are the
   * worst case (every planned day stale, read from its rows), which on a large ledger crosses
   * `jit_above_cost`, and compiling then costs a second for a query that runs in milliseconds
   * (measured at 2M rows: 1.0 s of JIT, 0.2 s of execution).
   */
  private async tuned(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.query(`SET jit = off; SET work_mem = '${REPORT_WORK_MEM}'`);
      return (await runner.query(sql, params)) as Record<string, unknown>[];
    } finally {
      await runner.query('RESET jit; RESET work_mem').catch(() => undefined);
      await runner.release();
    }
  }
}

/** A report's statement under construction: its parameters, and its filter as SQL. */
interface Builder {
  param(value: unknown): string;
  and: string;
  positions: string;
  raw: string;
}

/**
 * The rollup rows of the planned units and, for any planned unit that went stale since it was
 * planned (a late row; checked in the statement's own snapshot), that unit's raw rows instead.
 */
function rolledParts(kind: keyof typeof ROLLUPS, units: readonly string[], filter: UsageReportFilter, b: Builder): { ctes: string; parts: string[] } {
  if (units.length === 0) return { ctes: '', parts: [] };
  const r = ROLLUPS[kind];
  const table = rollupTable(r.table, filter);
  const ctes = `${kind}_planned AS (SELECT unnest(${b.param(units)}::${r.type}[]) AS ${r.unit}),
      ${kind}_fresh AS (SELECT p.${r.unit} FROM ${kind}_planned p JOIN ${r.state} s ON s.${r.unit} = p.${r.unit} AND s.rolled),
      ${kind}_stale AS (SELECT ${r.unit} FROM ${kind}_planned EXCEPT SELECT ${r.unit} FROM ${kind}_fresh), `;
  const columns = filter.groupBy.map((d) => DIMENSIONS[d][kind]).join(', ');
  return {
    ctes,
    parts: [
      `SELECT ${columns}, ${ROLLUP_SUMS} FROM ${table} WHERE ${r.unit} IN (SELECT ${r.unit} FROM ${kind}_fresh)${b.and}`,
      // LATERAL, fenced by OFFSET 0 so it is not flattened into a join: the rows of each stale unit
      // (normally none) by the time index, never a scan of a key's whole history that a join
      // planned on the worst-case estimate might prefer.
      `SELECT ${b.raw}, ${RAW_SUMS} FROM ${kind}_stale s CROSS JOIN LATERAL (
          SELECT * FROM request_log WHERE created_at >= ${r.start} AND created_at < ${r.end}${b.and} OFFSET 0
        ) r GROUP BY ${b.positions}`,
    ],
  };
}

/**
 * One statement, so one snapshot: a planned day or hour that went stale since it was planned is
 * read from its raw rows instead of its rollup, and no row is missed or counted twice.
 */
function reportQuery(filter: UsageReportFilter, plan: UsageReportPlan): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const param = (value: unknown): string => `$${params.push(value)}`;
  const conditions: string[] = [];
  if (filter.apiKeyId) conditions.push(`api_key_id = ${param(filter.apiKeyId)}`);
  if (filter.teamId) conditions.push(`team_id = ${param(filter.teamId)}`);
  const b: Builder = {
    param,
    and: conditions.map((c) => ` AND ${c}`).join(''),
    positions: filter.groupBy.map((_, i) => i + 1).join(', '),
    raw: filter.groupBy.map((d) => DIMENSIONS[d].raw).join(', '),
  };
  const parts = plan.rawRanges.map(
    (range) => `SELECT ${b.raw}, ${RAW_SUMS} FROM request_log WHERE created_at >= ${param(range.from)} AND created_at < ${param(range.to)}${b.and} GROUP BY ${b.positions}`,
  );
  const daily = rolledParts('daily', plan.rolledDays, filter, b);
  const hourly = rolledParts(
    'hourly',
    plan.rolledHours.map((hour) => hour.toISOString()),
    filter,
    b,
  );
  parts.push(...daily.parts, ...hourly.parts);
  const source = parts.length > 0 ? parts.map((part) => `(${part})`).join(' UNION ALL ') : `SELECT ${b.raw}, ${RAW_SUMS} FROM request_log WHERE false GROUP BY ${b.positions}`;
  const columns = filter.groupBy.map((d) => DIMENSIONS[d].column).join(', ');
  const sql = `WITH ${daily.ctes}${hourly.ctes}src AS (${source}),
      g AS (SELECT ${columns}, ${sumsOfSums(9)} FROM src GROUP BY ${b.positions})
    ${presented(filter.groupBy)}`;
  return { sql, params };
}

/** The grouped rows as answered: formatted dimensions, names joined, the report's order. */
function presented(groupBy: readonly UsageDimension[]): string {
  const shown = groupBy.map((d) => DIMENSIONS[d].shown).join(', ');
  const names = [groupBy.includes('key') ? ', k.name AS key_name' : '', groupBy.includes('team') ? ', t.name AS team_name' : ''].join('');
  const joins = [groupBy.includes('key') ? 'LEFT JOIN api_keys k ON k.id = g.api_key_id' : '', groupBy.includes('team') ? 'LEFT JOIN teams t ON t.id = g.team_id' : ''].join(' ');
  // Days in order, then the biggest spenders first; ids last so the order is stable.
  const order = [
    ...groupBy.filter((d) => TIME_DIMENSIONS.has(d)).map((d) => `g.${d}`),
    'g.cost_usd DESC',
    'g.requests DESC',
    ...groupBy.filter((d) => !TIME_DIMENSIONS.has(d)).map((d) => `g.${DIMENSIONS[d].column}`),
  ].join(', ');
  return `SELECT ${shown}, g.requests, g.errors, g.input_tokens, g.output_tokens, g.cached_tokens, g.reasoning_tokens, g.cache_hits${names},
           g.cost_usd::text AS cost_text, g.saved_usd::text AS saved_text
      FROM g ${joins} ORDER BY ${order}`;
}

function reportRow(groupBy: readonly UsageDimension[], columns: readonly (keyof UsageReportRow)[], row: Record<string, unknown>): UsageReportRow {
  const out = reportTotals(row);
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
  const ordered: Partial<Record<keyof UsageReportRow, unknown>> = {};
  for (const column of columns) ordered[column] = out[column];
  return ordered as unknown as UsageReportRow;
}
