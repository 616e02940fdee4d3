import type { DataSource } from 'typeorm';

/**
 * Memory for a report's grouping and sort: with PostgreSQL's default 4 MB the default
 * `day,key,model` week (~141k groups at the benchmark's shape) spilled both to disk. Set for the
 * statement on an admin endpoint; what it holds is bounded by the groups a report has.
 */
const REPORT_WORK_MEM = '64MB';

/**
 * A report's statement, on one connection with settings of its own, reset after:
 * - JIT off: the statement's estimates are the worst case (every planned day stale, read from its
 *   rows), which on a large ledger crosses `jit_above_cost`, and compiling then costs a second for
 *   a query that runs in milliseconds (measured at 2M rows: 1.0 s of JIT, 0.2 s of execution).
 * - For a page led by the day (decision 0034; the default report), sorting off: every rollup part
 *   is indexed in that order (migration 1733840000000) and must be read in it and stopped after the
 *   page's groups. The planner cannot tell how many rows a part's planned days select (an array
 *   known only when the statement runs), so on its estimates it may prefer to read them all and
 *   sort — a second at 100M rows, for a page that takes milliseconds. `enable_sort = off` does not
 *   forbid a sort (the ledger's rows are still sorted, there is no other way); it makes a plan that
 *   can avoid one prefer to. Only there: a report in another order has no such index for every
 *   part, and with sorting off the planner would take any index that happens to be in the order,
 *   however much of it a page must then walk (group_by=key,model: seconds a page at 10M rows).
 */
export async function runReportStatement(dataSource: DataSource, sql: string, params: unknown[], orderedPage: boolean): Promise<Record<string, unknown>[]> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query(`SET jit = off; SET work_mem = '${REPORT_WORK_MEM}'${orderedPage ? '; SET enable_sort = off' : ''}`);
    return (await runner.query(sql, params)) as Record<string, unknown>[];
  } finally {
    await runner.query('RESET jit; RESET work_mem; RESET enable_sort').catch(() => undefined);
    await runner.release();
  }
}
