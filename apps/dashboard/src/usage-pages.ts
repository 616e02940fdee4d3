import { get, query } from './api';
import type { UsageReport } from './types';

/** Groups a breakdown reads at most: five pages of the largest size. */
export const USAGE_GROUP_CAP = 50_000;
const PAGE = 10_000;

/** A report read page after page (decision 0034); `complete` is false when the cap cut it short. */
export interface WholeUsageReport extends UsageReport {
  complete: boolean;
}

/**
 * Every page of a `/admin/usage` report up to USAGE_GROUP_CAP groups, put together: the
 * breakdowns rank every group by cost, which only the whole report can tell (the API orders
 * groups by their dimensions, not by cost). The CSV export has them all, past the cap too.
 */
export async function getWholeUsage(path: string): Promise<WholeUsageReport> {
  const first = await get<UsageReport>(`${path}${path.includes('?') ? '&' : '?'}limit=${PAGE}`);
  const data = [...first.data];
  let next = first.next_cursor;
  while (next !== null && data.length < USAGE_GROUP_CAP) {
    const page = await get<UsageReport>(`/admin/usage${query({ cursor: next, limit: PAGE })}`);
    data.push(...page.data);
    next = page.next_cursor;
  }
  return { ...first, data, has_more: next !== null, next_cursor: next, complete: next === null };
}
