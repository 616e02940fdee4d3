/**
 * SQL pieces the ledger's report, rollup and retention share, so a rolled-up day and the raw rows
 * it came from are summed by the very same expressions (and a merged report equals a raw one).
 */

/** A report's sums over raw `request_log` rows: exact, unrounded (numeric costs). */
export const RAW_SUMS = [
  'count(*)::bigint AS requests',
  'count(*) FILTER (WHERE status >= 400 OR error_type IS NOT NULL)::bigint AS errors',
  'coalesce(sum(input_tokens), 0)::bigint AS input_tokens',
  'coalesce(sum(output_tokens), 0)::bigint AS output_tokens',
  'coalesce(sum(cached_tokens), 0)::bigint AS cached_tokens',
  'coalesce(sum(reasoning_tokens), 0)::bigint AS reasoning_tokens',
  'coalesce(sum(cost_usd), 0) AS cost_usd',
  "count(*) FILTER (WHERE cache = 'hit')::bigint AS cache_hits",
  'coalesce(sum(saved_usd), 0) AS saved_usd',
].join(', ');

/**
 * The same sums over rows that already hold sums (rollup rows, or raw sums per group); with
 * `digits`, costs rounded to that many decimals (the report's nano-dollars).
 */
export function sumsOfSums(digits?: number): string {
  return ['requests', 'errors', 'input_tokens', 'output_tokens', 'cached_tokens', 'reasoning_tokens', 'cost_usd', 'cache_hits', 'saved_usd']
    .map((column) => {
      if (!column.endsWith('_usd')) return `coalesce(sum(${column}), 0)::bigint AS ${column}`;
      return digits === undefined ? `coalesce(sum(${column}), 0) AS ${column}` : `round(coalesce(sum(${column}), 0), ${digits}) AS ${column}`;
    })
    .join(', ');
}

/** The columns of `request_log_daily` in order: the day, its four dimensions, the sums. */
export const ROLLUP_COLUMNS =
  'day, api_key_id, team_id, served_model, provider, requests, errors, input_tokens, output_tokens, cached_tokens, reasoning_tokens, cost_usd, cache_hits, saved_usd';

/** A UTC day as PostgreSQL's `date` literal text, `2026-11-29`. */
export function dayText(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** The UTC midnight that begins `day` (`2026-11-29`), and the next one. */
export function dayBounds(day: string): [Date, Date] {
  const from = new Date(`${day}T00:00:00.000Z`);
  return [from, new Date(from.getTime() + DAY_MS)];
}

export const DAY_MS = 86_400_000;

/** What the maintenance queries run on: the data source, or one connection of it. */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** The coarse grains of the rollups and their dimensions (decision 0027's amendment). */
export const COARSE_GRAINS = [
  ['keys', 'api_key_id, team_id'],
  ['models', 'served_model, provider'],
] as const;
const SUM_NAMES = 'requests, errors, input_tokens, output_tokens, cached_tokens, reasoning_tokens, cost_usd, cache_hits, saved_usd';

/**
 * The coarse copies of a rollup (`<table>_keys`, `<table>_models`) for one day or hour, recomputed
 * from its full rows: statements to run in the transaction that wrote them, after it did.
 * `at` is the unit's SQL literal text (a day or an instant), already checked.
 */
export function coarseRollupsSql(table: 'request_log_daily' | 'request_log_hourly', unit: 'day' | 'hour', at: string): string {
  return COARSE_GRAINS.map(
    ([grain, dimensions]) => `DELETE FROM ${table}_${grain} WHERE ${unit} = '${at}';
      INSERT INTO ${table}_${grain} (${unit}, ${dimensions}, ${SUM_NAMES}) SELECT ${unit}, ${dimensions}, ${sumsOfSums()} FROM ${table} WHERE ${unit} = '${at}' GROUP BY 1, 2, 3`,
  ).join(';\n');
}

