import { checkStoredText } from '@rosetta/platform';
import { endUserProblem, parseTagList } from '@rosetta/protocols/common';
import { decodeCursor, type LedgerPageFilter } from '@rosetta/usage';
import { id, instant, invalid, single } from './usage-query';

/** A page's filter; `format: 'ndjson'` asks for every matching row as a stream instead. */
export interface RequestListQuery extends LedgerPageFilter {
  format?: 'ndjson';
}

const PARAMETERS = ['before', 'limit', 'key_id', 'team_id', 'model', 'end_user', 'tag', 'status', 'since', 'until', 'format'];
export const REQUEST_LIST_DEFAULT_LIMIT = 50;
export const REQUEST_LIST_MAX_LIMIT = 200;

/**
 * `GET /admin/requests` parameters, checked: `limit` 1–200 (50 by default); `before` the
 * `next_cursor` of the previous page; `key_id` and `team_id` ids; `model` a requested or served
 * model id; `end_user` an end user and `tag` one tag, as requests carry them (decision 0033); `status` `error` (≥ 400) or an exact HTTP status; `since` (inclusive) and `until`
 * (exclusive) ISO 8601 dates or date-times as for `GET /admin/usage`; `format` json (a page) or
 * ndjson (an export of every matching row, without `limit` or `before`). Anything else is a 400
 * naming the parameter.
 */
export function parseRequestListQuery(query: Record<string, unknown>): RequestListQuery {
  for (const name of Object.keys(query)) {
    if (!PARAMETERS.includes(name)) throw invalid(name, `Unknown query parameter '${name}'; use ${PARAMETERS.join(', ')}`);
  }
  const format = single(query, 'format') ?? 'json';
  if (format !== 'json' && format !== 'ndjson') throw invalid('format', `Invalid 'format': must be json or ndjson, got '${format.slice(0, 20)}'`);
  if (format === 'ndjson') {
    for (const name of ['limit', 'before']) {
      if (query[name] !== undefined) throw invalid(name, `Invalid '${name}': an export (format=ndjson) has every matching row; narrow it with since and until instead`);
    }
  }
  const filter: LedgerPageFilter = { limit: limit(single(query, 'limit')) };
  const beforeText = single(query, 'before');
  if (beforeText !== undefined) {
    filter.before = decodeCursor(beforeText);
    if (!filter.before) throw invalid('before', `Invalid 'before': must be the next_cursor of a previous page, got '${beforeText.slice(0, 100)}'`);
  }
  const apiKeyId = id(query, 'key_id', 'a key id (see GET /admin/keys)');
  if (apiKeyId) filter.apiKeyId = apiKeyId;
  const teamId = id(query, 'team_id', 'a team id (see GET /admin/teams)');
  if (teamId) filter.teamId = teamId;
  const model = single(query, 'model');
  if (model !== undefined) {
    if (model.trim() === '' || model.length > 200) throw invalid('model', "Invalid 'model': must be a model id (1 to 200 characters)");
    checkStoredText(model, 'model');
    filter.model = model.trim();
  }
  const endUser = single(query, 'end_user');
  if (endUser !== undefined) filter.endUser = parseEndUser(endUser);
  const tag = single(query, 'tag');
  if (tag !== undefined) filter.tag = parseTag(tag);
  const status = single(query, 'status');
  if (status !== undefined) filter.status = parseStatus(status);
  const sinceText = single(query, 'since');
  if (sinceText !== undefined) filter.since = instant(sinceText, 'since', false);
  const untilText = single(query, 'until');
  if (untilText !== undefined) filter.until = instant(untilText, 'until', true);
  if (filter.since && filter.until && filter.since.getTime() >= filter.until.getTime()) {
    throw invalid('since', `Invalid 'since': must be before 'until' (since ${filter.since.toISOString()}, until ${filter.until.toISOString()})`);
  }
  return format === 'ndjson' ? { ...filter, format } : filter;
}

function limit(text: string | undefined): number {
  if (text === undefined) return REQUEST_LIST_DEFAULT_LIMIT;
  const value = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  if (!(value >= 1 && value <= REQUEST_LIST_MAX_LIMIT)) {
    throw invalid('limit', `Invalid 'limit': must be a whole number from 1 to ${REQUEST_LIST_MAX_LIMIT}, got '${text.slice(0, 20)}'`);
  }
  return value;
}

function parseEndUser(text: string): string {
  const problem = text.trim() === '' ? 'must not be empty' : endUserProblem(text);
  if (problem) throw invalid('end_user', `Invalid 'end_user': ${problem}`);
  return text.trim();
}

function parseTag(text: string): string {
  const tags = text.includes(',') ? undefined : parseTagList(text, 'tag');
  if (tags?.length !== 1) throw invalid('tag', "Invalid 'tag': must be one tag (1 to 64 characters: letters, digits and _ - . : / = @ +)");
  return tags[0]!;
}

function parseStatus(text: string): 'error' | number {
  if (text === 'error') return 'error';
  const value = /^\d{3}$/.test(text) ? Number(text) : NaN;
  if (!(value >= 100 && value <= 599)) {
    throw invalid('status', `Invalid 'status': must be 'error' (any status of 400 or more) or an HTTP status code such as 429, got '${text.slice(0, 20)}'`);
  }
  return value;
}
