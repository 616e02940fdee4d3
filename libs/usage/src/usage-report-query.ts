import { DAY_MS, RAW_SUMS } from './ledger/ledger-sql';
import type { UsageDimension, UsageReportFilter } from './usage-report';
import { groupedSql, isLedByDay, keyItems, keyList, leadingDayBound, pageStart, ROLLUP_PART_SUMS, shownItems, type ReportPage, type ReportPart } from './usage-report-order';
import { rollupTable, type UsageReportPlan } from './usage-report-plan';

/** Each dimension's value over raw rows and over daily and hourly rollup rows. */
const DIMENSIONS: Readonly<Record<UsageDimension, { raw: string; daily: string; hourly: string }>> = {
  day: { raw: "(created_at AT TIME ZONE 'UTC')::date", daily: 'day', hourly: "(hour AT TIME ZONE 'UTC')::date" },
  hour: { raw: "date_trunc('hour', created_at AT TIME ZONE 'UTC')", daily: '', hourly: "(hour AT TIME ZONE 'UTC')" },
  key: { raw: 'api_key_id', daily: 'api_key_id', hourly: 'api_key_id' },
  team: { raw: 'team_id', daily: 'team_id', hourly: 'team_id' },
  model: { raw: 'served_model', daily: 'served_model', hourly: 'served_model' },
  provider: { raw: 'provider', daily: 'provider', hourly: 'provider' },
};
/** What RAW_SUMS reads of a ledger row. */
const RAW_COLUMNS = 'status, error_type, input_tokens, output_tokens, cached_tokens, reasoning_tokens, cost_usd, cache, saved_usd';
const ROLLUP_COLUMNS = 'requests, errors, input_tokens, output_tokens, cached_tokens, reasoning_tokens, cost_usd, cache_hits, saved_usd';

/**
 * The two rollups a report reads: their full table (rollupTable picks its smallest coarse copy that
 * serves the report), state table, unit column and a unit's time range.
 */
const ROLLUPS = {
  daily: { table: 'request_log_daily', state: 'request_log_days', unit: 'day', type: 'date', start: "s.day::timestamp AT TIME ZONE 'UTC'", end: "(s.day + 1)::timestamp AT TIME ZONE 'UTC'" },
  hourly: { table: 'request_log_hourly', state: 'request_log_hours', unit: 'hour', type: 'timestamptz', start: 's.hour', end: "s.hour + interval '1 hour'" },
} as const;

/** A report's statement under construction: its parameters, and its filter as SQL. */
interface Builder {
  param(value: unknown): string;
  and: string;
  groupBy: readonly UsageDimension[];
}

/** Ledger rows keyed for the report, from `from` (rows `request_log` or a join holding them) under `where`. */
function rawPart(b: Builder, from: string, where: string): ReportPart {
  return { rows: `SELECT ${keyItems(b.groupBy, (d) => DIMENSIONS[d].raw)}, ${RAW_COLUMNS} FROM ${from} WHERE ${where}${b.and}`, sums: RAW_SUMS };
}

/**
 * The rollup rows of the planned units and, for any planned unit that went stale since it was
 * planned (a late row; checked in the statement's own snapshot), that unit's raw rows instead.
 */
function rolledParts(kind: keyof typeof ROLLUPS, units: readonly string[], filter: UsageReportFilter, b: Builder): { ctes: string; parts: ReportPart[] } {
  if (units.length === 0) return { ctes: '', parts: [] };
  const r = ROLLUPS[kind];
  const table = rollupTable(r.table, filter);
  const ctes = `${kind}_planned AS (SELECT unnest(${b.param(units)}::${r.type}[]) AS ${r.unit}),
      ${kind}_fresh AS (SELECT p.${r.unit} FROM ${kind}_planned p JOIN ${r.state} s ON s.${r.unit} = p.${r.unit} AND s.rolled),
      ${kind}_stale AS (SELECT ${r.unit} FROM ${kind}_planned EXCEPT SELECT ${r.unit} FROM ${kind}_fresh), `;
  // The fresh units as one array (an InitPlan), not a join: the part stays one scan of the rollup,
  // which a page reads in the report's order where an index has it, and stops early.
  const fresh = `${r.unit} = ANY(ARRAY(SELECT ${r.unit} FROM ${kind}_fresh))`;
  const keys = keyItems(b.groupBy, (d) => DIMENSIONS[d][kind]);
  // Led by the day, a part is bounded by its days, so its scan in the report's order starts at its
  // newest day and ends at its oldest; hours come in runs (the range's partial first day, today),
  // a part for each, so that no scan walks the days between them.
  const days = kind === 'hourly' ? units.map((hour) => hour.slice(0, 10)) : units;
  const runs = isLedByDay(b.groupBy) ? (kind === 'hourly' ? dayRuns(days) : [span(days)]) : [undefined];
  return {
    ctes,
    parts: [
      ...runs.map((run) => {
        const bound = run ? leadingDayBound(DIMENSIONS.day[kind], run[0], run[1], b.param) : '';
        return { rows: `SELECT ${keys}, ${ROLLUP_COLUMNS} FROM ${table} WHERE ${fresh}${bound}${b.and}`, sums: ROLLUP_PART_SUMS, indexed: !table.endsWith('_models') };
      }),
      // LATERAL, fenced by OFFSET 0 so it is not flattened into a join: the rows of each stale unit
      // (normally none) by the time index, never a scan of a key's whole history that a join
      // planned on the worst-case estimate might prefer.
      rawPart(b, `${kind}_stale s CROSS JOIN LATERAL (SELECT * FROM request_log WHERE created_at >= ${r.start} AND created_at < ${r.end}${b.and} OFFSET 0) x`, 'true'),
    ],
  };
}

/**
 * One statement, so one snapshot: a planned day or hour that went stale since it was planned is
 * read from its raw rows instead of its rollup, and no row is missed or counted twice. Grouped in
 * the report's order (decision 0034); for a page, only the `limit` groups after the previous
 * page's last one (plus one, to tell whether another page follows), each part read in that order
 * and stopped there (see groupedSql).
 */
export function reportQuery(filter: UsageReportFilter, plan: UsageReportPlan, page?: ReportPage): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const param = (value: unknown): string => `$${params.push(value)}`;
  const conditions: string[] = [];
  if (filter.apiKeyId) conditions.push(`api_key_id = ${param(filter.apiKeyId)}`);
  if (filter.teamId) conditions.push(`team_id = ${param(filter.teamId)}`);
  const b: Builder = { param, and: conditions.map((c) => ` AND ${c}`).join(''), groupBy: filter.groupBy };
  const parts = plan.rawRanges.map((range) => rawPart(b, 'request_log', `created_at >= ${param(range.from)} AND created_at < ${param(range.to)}`));
  const daily = rolledParts('daily', plan.rolledDays, filter, b);
  const hourly = rolledParts(
    'hourly',
    plan.rolledHours.map((hour) => hour.toISOString()),
    filter,
    b,
  );
  parts.push(...daily.parts, ...hourly.parts);
  if (parts.length === 0) parts.push(rawPart(b, 'request_log', 'false'));
  const paging = page ? { limit: param(page.limit + 1), ...(page.after ? { after: pageStart(filter.groupBy, page.after, param) } : {}) } : undefined;
  const sql = `WITH ${daily.ctes}${hourly.ctes}g AS (${groupedSql(filter.groupBy, parts, paging)})
    ${presented(filter.groupBy)}`;
  return { sql, params };
}

/** The first and the last of some days (ISO texts sort as the days do). */
function span(days: readonly string[]): [string, string] {
  const sorted = [...days].sort();
  return [sorted[0]!, sorted[sorted.length - 1]!];
}

/** Days as runs of consecutive days, each [first, last]. */
export function dayRuns(days: readonly string[]): Array<[string, string]> {
  const sorted = [...new Set(days)].sort();
  const runs: Array<[string, string]> = [];
  for (const day of sorted) {
    const run = runs[runs.length - 1];
    if (run && Date.parse(`${day}T00:00:00Z`) - Date.parse(`${run[1]}T00:00:00Z`) === DAY_MS) run[1] = day;
    else runs.push([day, day]);
  }
  return runs;
}

/** The grouped rows as answered: formatted dimensions, names joined, in the report's order. */
function presented(groupBy: readonly UsageDimension[]): string {
  const names = [groupBy.includes('key') ? ', k.name AS key_name' : '', groupBy.includes('team') ? ', t.name AS team_name' : ''].join('');
  const joins = [groupBy.includes('key') ? 'LEFT JOIN api_keys k ON k.id = g.api_key_id' : '', groupBy.includes('team') ? 'LEFT JOIN teams t ON t.id = g.team_id' : ''].join(' ');
  return `SELECT ${shownItems(groupBy)}, g.requests, g.errors, g.input_tokens, g.output_tokens, g.cached_tokens, g.reasoning_tokens, g.cache_hits${names},
           g.cost_usd::text AS cost_text, g.saved_usd::text AS saved_text
      FROM g ${joins} ORDER BY ${keyList(groupBy, 'g.')}`;
}
