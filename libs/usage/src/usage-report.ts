import { usdString } from './usd';

/** What a usage report can be grouped by. */
export const USAGE_DIMENSIONS = ['key', 'team', 'model', 'provider', 'day', 'hour'] as const;
export type UsageDimension = (typeof USAGE_DIMENSIONS)[number];
/** The attribution dimensions (decision 0033): read from their own rollups, one of them per report. */
export const ATTRIBUTION_DIMENSIONS = ['end_user', 'tag'] as const;
export type AttributionDimension = (typeof ATTRIBUTION_DIMENSIONS)[number];
export type ReportDimension = UsageDimension | AttributionDimension;

export function isAttributionDimension(dimension: string): dimension is AttributionDimension {
  return (ATTRIBUTION_DIMENSIONS as readonly string[]).includes(dimension);
}

export interface UsageReportFilter {
  /** Inclusive. */
  from: Date;
  /** Exclusive. */
  to: Date;
  /** At least one dimension, each at most once, in the order the rows should show them. */
  groupBy: readonly UsageDimension[];
  apiKeyId?: string;
  teamId?: string;
}

/**
 * One row of a report: the fields of the dimensions grouped by (`day` as `YYYY-MM-DD` UTC; a key
 * as its id and current name; a team likewise; a model as the served model id) and the totals.
 * Costs are decimal strings in USD (`0.000027`), never numbers in exponent form.
 */
export interface UsageReportRow {
  day?: string;
  /** The UTC hour it began, `2026-11-24T09:00:00Z`. */
  hour?: string;
  api_key_id?: string | null;
  key_name?: string | null;
  team_id?: string | null;
  team_name?: string | null;
  served_model?: string | null;
  /** The provider that served (the last attempt's); null when none did. */
  provider?: string | null;
  /** The end user the requests were for; null for requests that named none. */
  end_user?: string | null;
  /** One tag; null for requests without tags. A request with several tags counts under each. */
  tag?: string | null;
  requests: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  reasoning_tokens: number;
  cost_usd: string;
  /** Requests answered from the response cache. */
  cache_hits: number;
  /** What those hits would have cost. */
  saved_usd: string;
}

export type UsageTotals = Pick<UsageReportRow, 'requests' | 'errors' | 'input_tokens' | 'output_tokens' | 'cached_tokens' | 'reasoning_tokens' | 'cost_usd' | 'cache_hits' | 'saved_usd'>;

/** The columns each dimension contributes, in order. */
export const DIMENSION_COLUMNS: Readonly<Record<ReportDimension, readonly (keyof UsageReportRow)[]>> = {
  day: ['day'],
  key: ['api_key_id', 'key_name'],
  team: ['team_id', 'team_name'],
  model: ['served_model'],
  provider: ['provider'],
  hour: ['hour'],
  end_user: ['end_user'],
  tag: ['tag'],
};

export const METRIC_COLUMNS = ['requests', 'errors', 'input_tokens', 'output_tokens', 'cached_tokens', 'reasoning_tokens', 'cost_usd', 'cache_hits', 'saved_usd'] as const;

export function reportColumns(groupBy: readonly ReportDimension[]): (keyof UsageReportRow)[] {
  return [...groupBy.flatMap((dimension) => DIMENSION_COLUMNS[dimension]), ...METRIC_COLUMNS];
}

/** Sums rows exactly: costs are added as whole nano-dollars (the unit of `usdString`). */
export function usageTotals(rows: readonly UsageReportRow[]): UsageTotals {
  const totals = { requests: 0, errors: 0, input_tokens: 0, output_tokens: 0, cached_tokens: 0, reasoning_tokens: 0, cache_hits: 0 };
  let nanos = 0;
  let savedNanos = 0;
  for (const row of rows) {
    totals.requests += row.requests;
    totals.errors += row.errors;
    totals.input_tokens += row.input_tokens;
    totals.output_tokens += row.output_tokens;
    totals.cached_tokens += row.cached_tokens;
    totals.reasoning_tokens += row.reasoning_tokens;
    totals.cache_hits += row.cache_hits;
    nanos += Math.round(Number(row.cost_usd) * 1e9);
    savedNanos += Math.round(Number(row.saved_usd) * 1e9);
  }
  return { ...totals, cost_usd: usdString(nanos / 1e9), saved_usd: usdString(savedNanos / 1e9) };
}

/**
 * RFC 4180 CSV: a header row, CRLF line ends, fields quoted when they hold a comma, quote or line
 * break. Text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) is
 * prefixed with `'` (OWASP's advice for CSV exports); numbers and costs are never touched.
 */
export function usageCsv(groupBy: readonly ReportDimension[], rows: readonly UsageReportRow[]): string {
  return usageCsvHeader(groupBy) + usageCsvRows(groupBy, rows);
}

/** The CSV's header line (see usageCsv), for an export written a page at a time. */
export function usageCsvHeader(groupBy: readonly ReportDimension[]): string {
  return `${reportColumns(groupBy).join(',')}\r\n`;
}

/** CSV lines for some rows (see usageCsv), each ending in CRLF; empty for none. */
export function usageCsvRows(groupBy: readonly ReportDimension[], rows: readonly UsageReportRow[]): string {
  const columns = reportColumns(groupBy);
  const metrics = new Set<string>(METRIC_COLUMNS);
  return rows.map((row) => `${columns.map((column) => (metrics.has(column) ? String(row[column]) : csvCell(row[column]))).join(',')}\r\n`).join('');
}

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A report row's sums, as one SQL row of either report answers them (cost and savings as exact text). */
export function reportTotals(row: Record<string, unknown>): UsageReportRow {
  return {
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
}
