/**
 * A page of the ledger, newest first: `GET /admin/requests`. Keyset-paged on (created_at,
 * request_id), so a page is one bounded index scan however deep it goes, and rows written while
 * someone pages never shift the next page (no duplicates, no gaps).
 */
export interface LedgerPageFilter {
  /** At most this many rows (the caller bounds it). */
  limit: number;
  apiKeyId?: string;
  teamId?: string;
  /** Requested or served model id. */
  model?: string;
  /** Requests for this end user (decision 0033). */
  endUser?: string;
  /** Requests with this tag among theirs. */
  tag?: string;
  /** `error`: status ≥ 400; a number: that exact status. */
  status?: 'error' | number;
  /** Inclusive. */
  since?: Date;
  /** Exclusive. */
  until?: Date;
  /** Rows strictly older than this one, in (created_at, request_id) order. */
  before?: LedgerCursor;
}

/** Where a page ended: the last row's time (to the microsecond, as stored) and id. */
export interface LedgerCursor {
  /** ISO 8601 UTC with microseconds, `2026-11-27T05:31:02.123000Z`. */
  time: string;
  requestId: string;
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** A cursor as the API hands it out: opaque, URL-safe (base64url of `time id`). */
export function encodeCursor(cursor: LedgerCursor): string {
  return Buffer.from(`${cursor.time} ${cursor.requestId}`, 'utf8').toString('base64url');
}

/** The cursor back, or undefined when the text is not one this gateway handed out. */
export function decodeCursor(text: string): LedgerCursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(text)) return undefined;
  const [time, requestId, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split(' ');
  if (rest.length > 0 || !time || !requestId || !CURSOR_TIME.test(time) || Number.isNaN(Date.parse(time))) return undefined;
  return { time, requestId };
}

/**
 * The statement for a page, and its parameters. Every filter is a condition on one row; `model`
 * matches either the requested or the served model as two ordered index scans merged (an OR
 * would read and sort every matching row), each bounded by the limit, like the page itself.
 * Names of keys and teams are joined to the page's few rows afterwards.
 */
export function ledgerPageQuery(filter: LedgerPageFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const where: string[] = [];
  const param = (value: unknown): string => `$${params.push(value)}`;
  if (filter.apiKeyId) where.push(`api_key_id = ${param(filter.apiKeyId)}`);
  if (filter.teamId) where.push(`team_id = ${param(filter.teamId)}`);
  // Spelled as the partial indexes' predicates (end user; tags by GIN), so the planner may use them.
  if (filter.endUser !== undefined) where.push('end_user IS NOT NULL', `end_user = ${param(filter.endUser)}`);
  if (filter.tag !== undefined) where.push('tags IS NOT NULL', `tags @> ARRAY[${param(filter.tag)}]::text[]`);
  // Spelled as the partial index's predicate, so the planner can use it for an exact error code too.
  if (filter.status === 'error') where.push('status >= 400');
  else if (filter.status !== undefined) where.push(`status = ${param(filter.status)}`, ...(filter.status >= 400 ? ['status >= 400'] : []));
  if (filter.since) where.push(`created_at >= ${param(filter.since)}`);
  if (filter.until) where.push(`created_at < ${param(filter.until)}`);
  if (filter.before) {
    const time = param(filter.before.time);
    where.push(`created_at <= ${time}::timestamptz`, `(created_at < ${time}::timestamptz OR request_id < ${param(filter.before.requestId)})`);
  }
  const limit = param(filter.limit + 1); // one more than asked: whether an older page exists
  const order = 'created_at DESC, request_id DESC';
  const branch = (extra: string[], leading = ''): string => {
    const conditions = [...where, ...extra];
    return `(SELECT * FROM request_log ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''} ORDER BY ${leading}${order} LIMIT ${limit})`;
  };
  let page: string;
  if (filter.model === undefined) page = branch([]);
  else {
    const model = param(filter.model);
    // Disjoint halves: served as `model`, or asked for as `model` and served as something else (or
    // nothing). Each is read from its model's index in time order: the model is matched as a
    // one-value range and leads the order, because an equality would let the planner scan the
    // time index instead, and it cannot tell how rare "asked for one, served another" is.
    const half = (column: string, extra: string[]): string => branch([`${column} >= ${model}`, `${column} <= ${model}`, ...extra], `${column} DESC, `);
    page = `${half('served_model', [])} UNION ALL ${half('requested_model', ['requested_model IS DISTINCT FROM served_model'])} ORDER BY ${order} LIMIT ${limit}`;
  }
  // The time as text to the microsecond, as stored: a cursor must not lose what `Date` rounds off.
  const sql = `SELECT p.*, to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_time, k.name AS key_name, t.name AS team_name
    FROM (${page}) p LEFT JOIN api_keys k ON k.id = p.api_key_id LEFT JOIN teams t ON t.id = p.team_id
    ORDER BY p.created_at DESC, p.request_id DESC`;
  return { sql, params };
}
