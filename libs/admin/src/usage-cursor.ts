import { createHash } from 'node:crypto';
import { isStorableText } from '@rosetta/platform';
import { reportOrder, type GroupKey, type ReportDimension } from '@rosetta/usage';

/**
 * `GET /admin/usage`'s `next_cursor` (decision 0034): the report it continues (group_by, the
 * window, the filters) and the last group answered, as base64url JSON with a checksum. The report
 * travels in the cursor because a window left to its default ("the last 7 days") would move
 * between two pages; the checksum makes an edited or cut cursor a 400 rather than a quietly
 * different page. It is not a secret or a signature: whoever holds the admin token may ask for
 * any page anyway.
 */
export interface UsageCursor {
  groupBy: ReportDimension[];
  from: Date;
  to: Date;
  apiKeyId?: string;
  teamId?: string;
  /** The last group answered, in the report's order (see reportOrder). */
  after: GroupKey;
}

interface Payload {
  v: 1;
  g: string[];
  f: string;
  t: string;
  k?: string;
  m?: string;
  a: Array<string | null>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const HOUR = /^\d{4}-\d{2}-\d{2}T\d{2}:00:00Z$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const FORM = /^([A-Za-z0-9_-]{1,16000})\.([A-Za-z0-9_-]{16})$/;
/** Longer than any group value the gateway writes (an end user: 256 characters; model ids, slugs and tags less). */
const MAX_TEXT = 1024;

function checksum(body: string): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 16);
}

export function encodeUsageCursor(cursor: UsageCursor): string {
  const payload: Payload = {
    v: 1,
    g: [...cursor.groupBy],
    f: cursor.from.toISOString(),
    t: cursor.to.toISOString(),
    ...(cursor.apiKeyId ? { k: cursor.apiKeyId } : {}),
    ...(cursor.teamId ? { m: cursor.teamId } : {}),
    a: [...cursor.after],
  };
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${checksum(body)}`;
}

/**
 * The cursor back, or undefined when the text is not one this gateway handed out (or was changed
 * since). `isDimensions` checks the group_by it names the way the query parameter is checked.
 */
export function decodeUsageCursor(text: string, isDimensions: (names: string[]) => names is ReportDimension[]): UsageCursor | undefined {
  const form = FORM.exec(text);
  if (!form || checksum(form[1]!) !== form[2]) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(form[1]!, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isPayload(payload) || !isDimensions(payload.g)) return undefined;
  const from = instant(payload.f);
  const to = instant(payload.t);
  if (!from || !to || from >= to) return undefined;
  if ((payload.k !== undefined && !UUID.test(payload.k)) || (payload.m !== undefined && !UUID.test(payload.m))) return undefined;
  const order = reportOrder(payload.g);
  if (payload.a.length !== order.length || !order.every((dimension, i) => isGroupValue(dimension, payload.a[i]!))) return undefined;
  return { groupBy: payload.g, from, to, ...(payload.k ? { apiKeyId: payload.k } : {}), ...(payload.m ? { teamId: payload.m } : {}), after: payload.a };
}

function isPayload(value: unknown): value is Payload {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const p = value as Record<string, unknown>;
  const known = new Set(['v', 'g', 'f', 't', 'k', 'm', 'a']);
  return (
    Object.keys(p).every((name) => known.has(name)) &&
    p['v'] === 1 &&
    Array.isArray(p['g']) &&
    p['g'].every((d) => typeof d === 'string') &&
    typeof p['f'] === 'string' &&
    typeof p['t'] === 'string' &&
    (p['k'] === undefined || typeof p['k'] === 'string') &&
    (p['m'] === undefined || typeof p['m'] === 'string') &&
    Array.isArray(p['a']) &&
    p['a'].every((v) => v === null || typeof v === 'string')
  );
}

function instant(text: string): Date | undefined {
  const date = ISO.test(text) ? new Date(text) : undefined;
  return date && !Number.isNaN(date.getTime()) && date.toISOString() === text ? date : undefined;
}

/** A value a group of this dimension can have, as a report answers it. */
function isGroupValue(dimension: ReportDimension, value: string | null): boolean {
  if (dimension === 'day') return value !== null && DAY.test(value) && instant(`${value}T00:00:00.000Z`) !== undefined;
  if (dimension === 'hour') return value !== null && HOUR.test(value) && instant(value.replace('Z', '.000Z')) !== undefined;
  if (value === null) return true;
  if (dimension === 'key' || dimension === 'team') return UUID.test(value);
  return value.length <= MAX_TEXT && isStorableText(value);
}
