import { RAW_SUMS } from '../ledger/ledger-sql';

/**
 * The attribution rollups (migration 1733810000000, decision 0033): `request_log_daily_end_user`
 * and `request_log_daily_tag`, rolled in the same transaction as `request_log_daily`, from the same
 * rows and with the same sums, so a report by end user or tag over rolled days equals one over raw
 * rows. Kept apart from the main rollup so that it does not grow by every end user and tag.
 */

/** Tags as rows of a report: each tag, or one null for a request without tags. */
export function tagRows(column: string): string {
  return `unnest(CASE WHEN ${column} IS NULL OR cardinality(${column}) = 0 THEN ARRAY[NULL]::text[] ELSE ${column} END)`;
}

const DIMENSIONS = 'api_key_id, team_id, served_model, provider';

function rollupColumns(dimension: string): string {
  return `day, api_key_id, team_id, ${dimension}, served_model, provider, requests, errors, input_tokens, output_tokens, cached_tokens, reasoning_tokens, cost_usd, cache_hits, saved_usd`;
}

/** `rows` (a table or CTE of request_log rows) summed into both attribution rollups for `day`. */
function insertsFrom(day: string, rows: string): string[] {
  return [
    `INSERT INTO request_log_daily_end_user (${rollupColumns('end_user')})
       SELECT '${day}'::date, api_key_id, team_id, end_user, served_model, provider, ${RAW_SUMS}
         FROM ${rows} GROUP BY ${DIMENSIONS}, end_user`,
    `INSERT INTO request_log_daily_tag (${rollupColumns('tag')})
       SELECT '${day}'::date, api_key_id, team_id, t.tag, served_model, provider, ${RAW_SUMS}
         FROM ${rows} CROSS JOIN LATERAL ${tagRows('tags')} AS t(tag) GROUP BY ${DIMENSIONS}, t.tag`,
  ];
}

/**
 * Statements recomputing a day's attribution rollups from its rows in `range` (a condition on
 * created_at), for the main rollup's transaction (LedgerRollupRepository.rollDay).
 */
export function attributionRecomputeSql(day: string, range: string): string {
  const rows = `(SELECT * FROM request_log WHERE ${range}) r`;
  return [
    `DELETE FROM request_log_daily_end_user WHERE day = '${day}'`,
    `DELETE FROM request_log_daily_tag WHERE day = '${day}'`,
    ...insertsFrom(day, rows),
  ].join(';\n');
}

/**
 * CTEs adding the rows of `gone` (rows of a day already gone to retention, deleted in the same
 * statement as they are added to the main rollup) to the attribution rollups: `, a1 AS (…), a2 AS (…)`.
 */
export function attributionFromGoneSql(day: string): string {
  return insertsFrom(day, 'gone')
    .map((insert, i) => `, attribution_${i} AS (${insert})`)
    .join('');
}
