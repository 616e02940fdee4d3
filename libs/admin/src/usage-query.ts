import { GatewayError } from '@rosetta/canonical';
import { ATTRIBUTION_DIMENSIONS, isAttributionDimension, USAGE_DIMENSIONS, type GroupKey, type ReportDimension, type UsageDimension, type UsageReportFilter } from '@rosetta/usage';
import { decodeUsageCursor } from './usage-cursor';

const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/i;
const PARAMETERS = ['group_by', 'from', 'to', 'format', 'key_id', 'team_id', 'limit', 'cursor'];
/** Without `group_by`: what the report has always shown, a row per day, key and model. */
export const DEFAULT_GROUP_BY: readonly UsageDimension[] = ['day', 'key', 'model'];
/** Groups a page answers without `limit`, and at most (decision 0034). */
export const USAGE_DEFAULT_LIMIT = 1000;
export const USAGE_MAX_LIMIT = 10_000;

const DIMENSIONS: readonly ReportDimension[] = [...USAGE_DIMENSIONS, ...ATTRIBUTION_DIMENSIONS];

export interface UsageQuery extends Omit<UsageReportFilter, 'groupBy'> {
  /** At most one attribution dimension (end_user or tag): each is read from its own rollup. */
  groupBy: ReportDimension[];
  format: 'json' | 'csv';
  /** Groups on the page (JSON; the CSV export has every group). */
  limit: number;
  /** The last group of the previous page (from `cursor`). */
  after?: GroupKey;
}

/**
 * `GET /admin/usage` parameters, checked: `group_by` one or more of key, team, model, provider, day, hour, end_user,
 * tag (comma separated; end_user and tag not together); `from` (inclusive) and `to` (exclusive) as ISO 8601 dates or date-times, UTC unless
 * an offset is given, where a date alone for `to` includes that whole day; by default the 7 days
 * up to now; `limit` groups a page, 1 to 10,000 (1,000 by default); `cursor` the `next_cursor` of
 * the previous page, which carries the report it continues (the other parameters may be left out,
 * and any given must be the cursor's). `format=csv` is the export of every group: no `limit` or
 * `cursor`. Anything else is a 400 naming the parameter.
 */
export function parseUsageQuery(query: Record<string, unknown>, now = new Date()): UsageQuery {
  for (const name of Object.keys(query)) {
    if (!PARAMETERS.includes(name)) throw invalid(name, `Unknown query parameter '${name}'; use ${PARAMETERS.join(', ')}`);
  }
  const format = single(query, 'format') ?? 'json';
  if (format !== 'json' && format !== 'csv') throw invalid('format', `Invalid 'format': must be json or csv, got '${format.slice(0, 20)}'`);
  if (format === 'csv') {
    for (const name of ['limit', 'cursor']) {
      if (query[name] !== undefined) throw invalid(name, `Invalid '${name}': the CSV export (format=csv) has every group, streamed; page the JSON answer instead`);
    }
  }
  const limit = parseLimit(single(query, 'limit'));
  const cursorText = single(query, 'cursor');
  const report = cursorText === undefined ? parseReport(query, now) : continued(query, cursorText, now);
  return { ...report, format, limit };
}

/** The report the parameters name: group_by, the window and the filters. */
function parseReport(query: Record<string, unknown>, now: Date): Omit<UsageQuery, 'format' | 'limit'> {
  const groupBy = parseGroupBy(single(query, 'group_by'));
  const toText = single(query, 'to');
  const fromText = single(query, 'from');
  const to = toText === undefined ? now : instant(toText, 'to', true);
  const from = fromText === undefined ? new Date(to.getTime() - 7 * DAY_MS) : instant(fromText, 'from', false);
  if (from.getTime() >= to.getTime()) {
    throw invalid('from', `Invalid 'from': must be before 'to' (from ${from.toISOString()}, to ${to.toISOString()})`);
  }
  const apiKeyId = id(query, 'key_id', 'a key id (see GET /admin/keys)');
  const teamId = id(query, 'team_id', 'a team id (see GET /admin/teams)');
  return { groupBy, from, to, ...(apiKeyId ? { apiKeyId } : {}), ...(teamId ? { teamId } : {}) };
}

/**
 * The report a cursor continues, after its last group. Parameters given beside it are checked as
 * usual and must name the same report: a cursor never moves to another one.
 */
function continued(query: Record<string, unknown>, text: string, now: Date): Omit<UsageQuery, 'format' | 'limit'> {
  const cursor = decodeUsageCursor(text, isDimensionList);
  if (!cursor) throw invalid('cursor', `Invalid 'cursor': must be the next_cursor of a previous page, unchanged, got '${text.slice(0, 100)}'`);
  const { after, ...report } = cursor;
  const given = ['group_by', 'from', 'to', 'key_id', 'team_id'].filter((name) => query[name] !== undefined);
  if (given.length > 0) {
    const asked = parseReport(query, now);
    const same = (name: string): boolean => {
      if (name === 'group_by') return asked.groupBy.join(',') === report.groupBy.join(',');
      if (name === 'from') return asked.from.getTime() === report.from.getTime();
      if (name === 'to') return asked.to.getTime() === report.to.getTime();
      if (name === 'key_id') return asked.apiKeyId?.toLowerCase() === report.apiKeyId?.toLowerCase();
      return asked.teamId?.toLowerCase() === report.teamId?.toLowerCase();
    };
    const differs = given.filter((name) => !same(name));
    if (differs.length > 0) {
      throw invalid('cursor', `Invalid 'cursor': it continues another report (${differs.map((name) => `${name} differs`).join(', ')}); leave those out beside a cursor, or drop the cursor to start a new report`);
    }
  }
  return { ...report, after };
}

function isDimensionList(names: string[]): names is ReportDimension[] {
  try {
    return parseGroupBy(names.join(',')).length === names.length;
  } catch {
    return false;
  }
}

function parseLimit(text: string | undefined): number {
  if (text === undefined) return USAGE_DEFAULT_LIMIT;
  const value = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(value >= 1 && value <= USAGE_MAX_LIMIT)) {
    throw invalid('limit', `Invalid 'limit': must be a whole number from 1 to ${USAGE_MAX_LIMIT}, got '${text.slice(0, 20)}'`);
  }
  return value;
}

function parseGroupBy(value: string | undefined): ReportDimension[] {
  if (value === undefined) return [...DEFAULT_GROUP_BY];
  const parts = value.split(',').map((part) => part.trim());
  const dimensions: ReportDimension[] = [];
  for (const part of parts) {
    if (!(DIMENSIONS as readonly string[]).includes(part)) {
      throw invalid('group_by', `Invalid 'group_by': '${part.slice(0, 40)}' is not one of ${DIMENSIONS.join(', ')} (several may be given, comma separated)`);
    }
    if (dimensions.includes(part as ReportDimension)) throw invalid('group_by', `Invalid 'group_by': '${part}' is given twice`);
    dimensions.push(part as ReportDimension);
  }
  if (dimensions.filter(isAttributionDimension).length > 1) throw invalid('group_by', "Invalid 'group_by': end_user and tag cannot be grouped by together; ask for one of them");
  return dimensions;
}

/** A report of the base dimensions only (the main rollup's), or one with end_user or tag. */
export function isBaseReport(query: UsageQuery): query is UsageQuery & { groupBy: UsageDimension[] } {
  return !query.groupBy.some(isAttributionDimension);
}

export function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(name, `Invalid '${name}': give it once, as a single value`);
  return value;
}

/** An ISO 8601 date or date-time; a date alone is UTC midnight, or the next one for an end. */
export function instant(text: string, name: string, end: boolean): Date {
  const date = DATE.exec(text);
  const dateTime = date ? null : DATE_TIME.exec(text);
  const parts = date ?? dateTime;
  const [year, month, day] = parts ? [Number(parts[1]), Number(parts[2]), Number(parts[3])] : [NaN, NaN, NaN];
  const zone = dateTime?.[7];
  const parsed = date ? new Date(Date.UTC(year, month - 1, day)) : new Date(dateTime && !zone ? `${text}Z` : text);
  // Date.UTC rolls 2026-02-30 over to March: compare the fields back to refuse it.
  const calendar = date ? parsed : new Date(Date.UTC(year, month - 1, day));
  const real = calendar.getUTCFullYear() === year && calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day;
  if (!parts || !real || Number.isNaN(parsed.getTime())) {
    throw invalid(name, `Invalid '${name}': must be an ISO 8601 date (2026-11-24) or date-time (2026-11-24T09:30:00Z), got '${text}'`);
  }
  return date && end ? new Date(parsed.getTime() + DAY_MS) : parsed;
}

export function id(query: Record<string, unknown>, name: string, what: string): string | undefined {
  const value = single(query, name);
  if (value !== undefined && !UUID.test(value)) throw invalid(name, `Invalid '${name}': must be ${what}, got '${value}'`);
  return value;
}

export function invalid(param: string, message: string): GatewayError {
  return GatewayError.invalidRequest(message, param);
}
