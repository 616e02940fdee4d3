import { dayBounds, dayText, DAY_MS } from './ledger/ledger-sql';
import type { UsageDimension, UsageReportFilter } from './usage-report';

const HOUR_MS = 3_600_000;

/**
 * How a usage report over [from, to) is read (decision 0027): the whole UTC days inside it whose
 * rollup is current come from `request_log_daily`; of the rest, the whole closed hours whose
 * rollup is current from `request_log_hourly`; every other instant (the hour in progress, an hour
 * cut by `from` or `to`, anything not rolled up yet) from the raw ledger, as few time ranges.
 */
export interface UsageReportPlan {
  rolledDays: string[];
  rolledHours: Date[];
  rawRanges: Array<{ from: Date; to: Date }>;
}

/** The whole UTC days inside [from, to), as [first, end) day texts; undefined when there is none. */
export function wholeDays(from: Date, to: Date): { first: string; end: string } | undefined {
  const first = Math.ceil(from.getTime() / DAY_MS) * DAY_MS;
  const end = Math.floor(to.getTime() / DAY_MS) * DAY_MS;
  return first < end ? { first: dayText(new Date(first)), end: dayText(new Date(end)) } : undefined;
}

/**
 * `rolledDays`: whole days of the range with a current rollup; `rolledHours`: whole hours of the
 * range with a current rollup (those inside a rolled day are left to the day); both in order.
 */
export function planUsageReport(from: Date, to: Date, rolledDays: readonly string[], rolledHours: readonly Date[] = []): UsageReportPlan {
  const days = new Set(rolledDays);
  const hours = rolledHours.filter((hour) => !days.has(dayText(hour)));
  const units = [
    ...rolledDays.map((day) => dayBounds(day)),
    ...hours.map((hour): [Date, Date] => [hour, new Date(hour.getTime() + HOUR_MS)]),
  ].sort((a, b) => a[0].getTime() - b[0].getTime());
  const rawRanges: UsageReportPlan['rawRanges'] = [];
  let cursor = from;
  for (const [start, next] of units) {
    if (start > cursor) rawRanges.push({ from: cursor, to: start });
    cursor = next;
  }
  if (cursor < to) rawRanges.push({ from: cursor, to });
  return { rolledDays: [...rolledDays], rolledHours: hours, rawRanges };
}

/**
 * The smallest copy of a rollup holding every dimension the report groups or filters by: `_models`
 * for day, hour, model and provider alone; `_keys` for key and team alone; else the full rollup.
 */
export function rollupTable(base: string, filter: UsageReportFilter): string {
  const needed = new Set<UsageDimension>(filter.groupBy.filter((d) => d !== 'day' && d !== 'hour'));
  if (filter.apiKeyId) needed.add('key');
  if (filter.teamId) needed.add('team');
  const within = (allowed: UsageDimension[]): boolean => [...needed].every((d) => allowed.includes(d));
  if (within(['model', 'provider'])) return `${base}_models`;
  if (within(['key', 'team'])) return `${base}_keys`;
  return base;
}
