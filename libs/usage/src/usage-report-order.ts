import { sumsOfSums } from './ledger/ledger-sql';
import type { ReportDimension, UsageReportRow } from './usage-report';

/**
 * The order of a usage report's groups, and how a page of them is read (decision 0034): the time
 * dimensions first, newest first, then the other dimensions in the order asked, ascending with
 * null last. Every group has one position in it, so a page continues after the last group it
 * answered — a keyset over the group columns — and groups written between two pages never shift
 * the next one.
 *
 * A day or an hour is grouped and ordered by its distance before a fixed far instant (an integer
 * of days, an interval), which ascends as time descends. PostgreSQL groups only in ascending
 * order and cannot use a descending `ORDER BY` to group (it groups ascending and sorts again, over
 * every group), so with every key ascending the grouping, the order and the rollup indexes on
 * `(DATE '2100-01-01' - day), api_key_id, served_model` line up.
 */

/** A group's position: the values of its order columns, in order (text as answered; null for none). */
export type GroupKey = ReadonlyArray<string | null>;

/** A page of a report: at most `limit` groups, those after `after` (the previous page's last group). */
export interface ReportPage {
  limit: number;
  after?: GroupKey;
}

export interface ReportPageResult {
  data: UsageReportRow[];
  /** The last group's position when more groups follow it; null on the last page. */
  next: GroupKey | null;
}

interface KeyColumn {
  /** The grouped column's name in every part of a report. */
  name: string;
  /** The key from the dimension's value (an expression over a part's rows). */
  of(value: string): string;
  /** The key from a cursor's text (a parameter). */
  cursor(param: string): string;
  /** The answered column from the grouped key `g.<name>`. */
  shown: string;
  time: boolean;
}

const plain = (name: string, type: string): KeyColumn => ({ name, of: (value) => value, cursor: (param) => `${param}::${type}`, shown: `g.${name}`, time: false });

/** Days before 2100-01-01 (an integer); an hour's distance before it (an interval). */
const KEYS: Readonly<Record<ReportDimension, KeyColumn>> = {
  day: {
    name: 'day_key',
    of: (value) => `(DATE '2100-01-01' - ${value})`,
    cursor: (param) => `(DATE '2100-01-01' - ${param}::date)`,
    shown: "to_char(DATE '2100-01-01' - g.day_key, 'YYYY-MM-DD') AS day",
    time: true,
  },
  hour: {
    name: 'hour_key',
    of: (value) => `(TIMESTAMP '2100-01-01' - ${value})`,
    // The answered hour (`2026-11-24T09:00:00Z`) is read as the UTC timestamp it names.
    cursor: (param) => `(TIMESTAMP '2100-01-01' - replace(${param}, 'Z', '')::timestamp)`,
    shown: `to_char(TIMESTAMP '2100-01-01' - g.hour_key, 'YYYY-MM-DD"T"HH24:00:00"Z"') AS hour`,
    time: true,
  },
  key: plain('api_key_id', 'uuid'),
  team: plain('team_id', 'uuid'),
  model: plain('served_model', 'text'),
  provider: plain('provider', 'text'),
  end_user: plain('end_user', 'text'),
  tag: plain('tag', 'text'),
};

/** The answered row's field holding each dimension's value. */
const FIELDS: Readonly<Record<ReportDimension, keyof UsageReportRow>> = {
  day: 'day',
  hour: 'hour',
  key: 'api_key_id',
  team: 'team_id',
  model: 'served_model',
  provider: 'provider',
  end_user: 'end_user',
  tag: 'tag',
};

/** The dimensions in the report's order: time first (as asked), then the others (as asked). */
export function reportOrder<D extends ReportDimension>(groupBy: readonly D[]): D[] {
  return [...groupBy.filter((d) => KEYS[d].time), ...groupBy.filter((d) => !KEYS[d].time)];
}

/** The grouped key columns in the report's order, comma separated, optionally qualified (`g.`). */
export function keyList(groupBy: readonly ReportDimension[], qualifier = ''): string {
  return reportOrder(groupBy)
    .map((d) => `${qualifier}${KEYS[d].name}`)
    .join(', ');
}

/** Each dimension's key as a select item, from its value over a part's rows (`values[d]`). */
export function keyItems<D extends ReportDimension>(groupBy: readonly D[], values: (dimension: D) => string): string {
  return reportOrder(groupBy)
    .map((d) => `${KEYS[d].of(values(d))} AS ${KEYS[d].name}`)
    .join(', ');
}

/** The answered dimension columns (in the order asked) from the grouped keys of `g`. */
export function shownItems(groupBy: readonly ReportDimension[]): string {
  return groupBy.map((d) => KEYS[d].shown).join(', ');
}

/** Where a page starts: after the previous page's last group (see pageStart). */
export interface PageStart {
  /** "After the group", as one condition. */
  any: string;
  /** The same as disjoint conditions, in the report's order, each a range an index scan can start at. */
  ranges: string[];
}

/**
 * "After `key` in the report's order", over the key columns. Nulls sort last: nothing follows a
 * null, and a null follows every value. As one condition (with a plain bound on a leading time
 * key, which an index scan starts from), and as ranges: for `day, key, model` after (d, k, m),
 * `day = d AND key = k AND model > m`, `… AND model IS NULL`, `day = d AND key > k`,
 * `day = d AND key IS NULL`, `day > d` — with nulls last the one condition is an `OR` that no index
 * scan can start from inside a day, while each range can.
 */
export function pageStart(groupBy: readonly ReportDimension[], key: GroupKey, param: (value: unknown) => string): PageStart {
  const order = reportOrder(groupBy).map((d) => KEYS[d]);
  const values = order.map((column, i) => {
    const value = key[i];
    return value === null || value === undefined ? null : column.cursor(param(value));
  });
  const branches: string[][] = [];
  for (let i = order.length - 1; i >= 0; i--) {
    const { name, time } = order[i]!;
    const value = values[i];
    if (value === null) continue;
    const equal = order.slice(0, i).map((column, j) => (values[j] === null ? `${column.name} IS NULL` : `${column.name} = ${values[j]}`));
    branches.push([...equal, `${name} > ${value}`], ...(time ? [] : [[...equal, `${name} IS NULL`]]));
  }
  const ranges = branches.map((conditions) => conditions.join(' AND '));
  if (ranges.length === 0) return { any: 'false', ranges: ['false'] };
  const bound = order[0]!.time ? `${order[0]!.name} >= ${values[0]} AND ` : '';
  return { any: `${bound}(${ranges.map((range) => `(${range})`).join(' OR ')})`, ranges };
}

/** A group's position from its answered row. */
export function groupKey(groupBy: readonly ReportDimension[], row: UsageReportRow): GroupKey {
  return reportOrder(groupBy).map((d) => {
    const value = row[FIELDS[d]];
    return value === null || value === undefined ? null : String(value);
  });
}

/** One source of a report's rows: its keyed rows (`SELECT <keys>, <columns> FROM … WHERE …`) and how they are summed. */
export interface ReportPart {
  /** A select whose columns are the key columns and what `sums` reads. */
  rows: string;
  /** The sums over those rows: RAW_SUMS for ledger rows, the sums of sums for rollup rows. */
  sums: string;
  /** Its rows are indexed in the report's order when it is led by the day (the full rollups and `_keys`). */
  indexed?: boolean;
}

/**
 * The report over its parts, grouped by key in the report's order; for a page, the groups after
 * `after`, `limit` of them. Led by the day, each part is also grouped, cut and limited on its own
 * before the parts are merged: the page's first `limit` groups are among each part's first `limit`
 * groups (a part has at most one row per group, in the same order), so each part is read in order
 * from its index and stopped early, and the merge groups a few thousand rows, not the range's
 * every group. In any other order the parts are grouped whole and the merge is cut: the page
 * costs what the whole report does (no index holds those orders for every part; see
 * report-statement.ts).
 */
export function groupedSql(groupBy: readonly ReportDimension[], parts: readonly ReportPart[], page?: { limit: string; after?: PageStart }): string {
  const keys = keyList(groupBy);
  const tail = page ? ` ORDER BY ${keys} LIMIT ${page.limit}` : '';
  const ledByDay = isLedByDay(groupBy);
  const partTail = ledByDay ? tail : '';
  // An indexed part continues in each of the page start's ranges, so every scan starts at the cursor.
  const cuts = (part: ReportPart): Array<string | undefined> => (!page?.after ? [undefined] : ledByDay && part.indexed ? page.after.ranges : [page.after.any]);
  const grouped = parts
    .flatMap((part) => cuts(part).map((cut) => `(SELECT ${keys}, ${part.sums} FROM (${part.rows}) r${cut ? ` WHERE ${cut}` : ''} GROUP BY ${keys}${partTail})`))
    .join(' UNION ALL ');
  return `SELECT ${keys}, ${sumsOfSums(9)} FROM (${grouped}) src GROUP BY ${keys}${tail}`;
}

/** Whether the report's order starts with the day: the order its rollups are indexed in. */
export function isLedByDay(groupBy: readonly ReportDimension[]): boolean {
  return reportOrder(groupBy)[0] === 'day';
}

/** ` AND` the day key of `day` (a part's day value) within [first, last], for a report led by the day. */
export function leadingDayBound(day: string, first: string, last: string, param: (value: unknown) => string): string {
  return ` AND ${KEYS.day.of(day)} BETWEEN ${KEYS.day.cursor(param(last))} AND ${KEYS.day.cursor(param(first))}`;
}

/** The sums of a part of rollup rows (unrounded: the merge rounds once). */
export const ROLLUP_PART_SUMS = sumsOfSums();
