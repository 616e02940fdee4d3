import { dayBounds, dayText, DAY_MS } from './ledger/ledger-sql';

/**
 * How a usage report over [from, to) is read (decision 0027): the whole UTC days inside it whose
 * rollup is current come from `request_log_daily`; every other instant of the range (a day cut by
 * `from` or `to`, today, a day not rolled up yet) from the raw ledger, as few time ranges.
 */
export interface UsageReportPlan {
  rolledDays: string[];
  rawRanges: Array<{ from: Date; to: Date }>;
}

/** The whole UTC days inside [from, to), as [first, end) day texts; undefined when there is none. */
export function wholeDays(from: Date, to: Date): { first: string; end: string } | undefined {
  const first = Math.ceil(from.getTime() / DAY_MS) * DAY_MS;
  const end = Math.floor(to.getTime() / DAY_MS) * DAY_MS;
  return first < end ? { first: dayText(new Date(first)), end: dayText(new Date(end)) } : undefined;
}

/** `rolledDays`: whole days of the range with a current rollup, in order. */
export function planUsageReport(from: Date, to: Date, rolledDays: readonly string[]): UsageReportPlan {
  const rawRanges: UsageReportPlan['rawRanges'] = [];
  let cursor = from;
  for (const day of rolledDays) {
    const [start, next] = dayBounds(day);
    if (start > cursor) rawRanges.push({ from: cursor, to: start });
    cursor = next;
  }
  if (cursor < to) rawRanges.push({ from: cursor, to });
  return { rolledDays: [...rolledDays], rawRanges };
}
