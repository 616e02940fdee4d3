/** One line of the audit log: who did what to which object, when and from where. */
export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  role: string | null;
  /** `bearer` (ADMIN_TOKEN on the API), `token` or `oidc` (a dashboard session signed in that way). */
  method: string;
  /** `key.create`, `key.update`, `key.revoke`, `team.create`, `plan.put`, `provider.put`, `session.sign_in`, … */
  action: string;
  target_type: string | null;
  target_id: string | null;
  target_name: string | null;
  /** What was asked for, secrets removed. */
  details: Record<string, unknown> | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
}

export interface NewAuditEntry {
  actor: string;
  role?: string;
  method: string;
  action: string;
  targetType?: string;
  targetId?: string;
  targetName?: string;
  details?: Record<string, unknown>;
  ip?: string;
  userAgent?: string;
  requestId?: string;
}

export interface AuditQuery {
  limit: number;
  /** Entries older than this id (the previous page's `next_cursor`). */
  before?: string;
  /** An action (`key.revoke`) or a kind of object (`key`: every key action). */
  action?: string;
  /** Part of the actor's name, any case. */
  actor?: string;
  /** A target's id or name. */
  target?: string;
  from?: Date;
  to?: Date;
}

/** Field names whose values never reach the audit log. */
const SECRET_FIELDS = /^(api_key|key|token|secret|password|client_secret)$/i;

/** A request body as the audit log keeps it: secrets replaced, size bounded. */
export function redactDetails(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const redacted = redact(body, 0) as Record<string, unknown>;
  if (Object.keys(redacted).length === 0) return undefined;
  return JSON.stringify(redacted).length > 8_000 ? { truncated: true, fields: Object.keys(redacted) } : redacted;
}

function redact(value: unknown, depth: number): unknown {
  if (depth > 6) return '…';
  if (Array.isArray(value)) return value.slice(0, 100).map((item) => redact(item, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [name, SECRET_FIELDS.test(name) ? '[redacted]' : name === 'url' && typeof item === 'string' ? withoutCredentials(item) : redact(item, depth + 1)]),
  );
}

/**
 * A URL as the audit log keeps it (a webhook guardrail's `url`): credentials in its user part or
 * its query (`?token=…`) are how such endpoints are often authenticated, so neither is kept.
 */
export function withoutCredentials(text: string): string {
  try {
    const url = new URL(text);
    // Nothing to take out: kept as written (an alert webhook's URL is already cut to its origin).
    if (!url.username && !url.password && !url.search) return text;
    if (url.username || url.password) url.username = url.password = '';
    for (const name of [...url.searchParams.keys()]) url.searchParams.set(name, '[redacted]');
    return url.toString();
  } catch {
    return '[redacted]';
  }
}
