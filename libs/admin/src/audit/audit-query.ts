import { GatewayError } from '@rosetta/canonical';
import { checkStoredText } from '@rosetta/platform';
import type { AuditQuery } from './audit-entry';

const PARAMETERS = ['limit', 'before', 'action', 'actor', 'target', 'from', 'to'];

function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw GatewayError.invalidRequest(`Invalid '${name}': give it once, as a single value`, name);
  return value;
}

function instant(query: Record<string, unknown>, name: string): Date | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  const date = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(value) ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw GatewayError.invalidRequest(`Invalid '${name}': must be an ISO 8601 date or date-time, got '${value.slice(0, 100)}'`, name);
  return date;
}

/**
 * `GET /admin/audit` parameters: `limit` (1–200, default 50), `before` (the `next_cursor` of the
 * page before), `action` (`key.revoke`, or `key` for every key action), `actor` (part of a name),
 * `target` (an object's id or name), `from`/`to` (ISO 8601). Anything else is a 400 naming it.
 */
export function parseAuditQuery(query: Record<string, unknown>): AuditQuery {
  for (const name of Object.keys(query)) {
    if (!PARAMETERS.includes(name)) throw GatewayError.invalidRequest(`Unknown query parameter '${name}'; use ${PARAMETERS.join(', ')}`, name);
  }
  const limitText = single(query, 'limit') ?? '50';
  if (!/^\d+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 200) {
    throw GatewayError.invalidRequest(`Invalid 'limit': must be a whole number from 1 to 200, got '${limitText.slice(0, 50)}'`, 'limit');
  }
  const before = single(query, 'before');
  if (before !== undefined && !/^\d{1,18}$/.test(before)) throw GatewayError.invalidRequest(`Invalid 'before': must be the next_cursor of a previous page, got '${before.slice(0, 50)}'`, 'before');
  const action = single(query, 'action');
  if (action !== undefined && !/^[a-z_]+(\.[a-z_]+)?$/.test(action)) {
    throw GatewayError.invalidRequest(`Invalid 'action': an action such as key.revoke, or a kind such as key, got '${action.slice(0, 50)}'`, 'action');
  }
  // A NUL reaching PostgreSQL's text comparison is an error there: refuse it here, naming the parameter.
  const actor = checkStoredText(single(query, 'actor'), 'actor')?.slice(0, 200);
  const target = checkStoredText(single(query, 'target'), 'target')?.slice(0, 200);
  return { limit: Number(limitText), before, action, actor, target, from: instant(query, 'from'), to: instant(query, 'to') };
}
