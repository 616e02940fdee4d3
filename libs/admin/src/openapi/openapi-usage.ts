/** `GET /admin/usage` in the OpenAPI document (openapi-document.ts merges it in): paged JSON, or the CSV export. */
import { queryParam, ref, type Json } from './openapi-parts';

const text = { type: ['string', 'null'] };
const count = { type: 'integer' };
const usd = { type: 'string', description: 'USD as a decimal string, up to nine decimals' };
const SUMS: Json = {
  requests: count,
  errors: { ...count, description: 'Status 400 or more, or an error type' },
  input_tokens: count,
  output_tokens: count,
  cached_tokens: count,
  reasoning_tokens: count,
  cost_usd: usd,
  cache_hits: { ...count, description: 'Requests answered from the response cache' },
  saved_usd: { ...usd, description: 'What those hits would have cost' },
};

export const USAGE_SCHEMAS: Json = {
  UsageRow: {
    type: 'object',
    description: 'One group: the fields of the dimensions grouped by, in the order asked, then its sums',
    properties: {
      day: { type: 'string', format: 'date', description: 'UTC day' },
      hour: { type: 'string', description: 'The UTC hour it began, 2026-11-24T09:00:00Z' },
      api_key_id: text,
      key_name: { ...text, description: "The key's current name" },
      team_id: text,
      team_name: text,
      served_model: { ...text, description: 'Null for requests no model answered' },
      provider: text,
      end_user: text,
      tag: { ...text, description: 'Null for requests without tags' },
      ...SUMS,
    },
  },
  UsageReport: {
    type: 'object',
    required: ['from', 'to', 'group_by', 'data', 'totals', 'has_more', 'next_cursor'],
    properties: {
      from: { type: 'string', format: 'date-time' },
      to: { type: 'string', format: 'date-time' },
      group_by: { type: 'array', items: { type: 'string' } },
      data: { type: 'array', items: ref('UsageRow'), description: 'This page: newest day or hour first, then the other dimensions ascending (null last)' },
      totals: { type: 'object', properties: SUMS, description: 'The whole report, the same on every page (by tag, a request counts once)' },
      has_more: { type: 'boolean' },
      next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last' },
    },
  },
};

export function usagePaths(admin: (summary: string, tag: string, responses: Json, extra?: Json) => Json): Record<string, Record<string, Json>> {
  return {
    '/admin/usage': {
      get: admin(
        'Usage grouped by key, team, model, provider, day, hour, end user or tag: a page of groups at a time (keyset-paged: rows arriving between pages never repeat or skip a group), or with format=csv every group, streamed',
        'Admin: usage',
        { '200': { description: 'A page, or the CSV export', content: { 'application/json': { schema: ref('UsageReport') }, 'text/csv': { schema: { type: 'string' } } } } },
        {
          parameters: [
            queryParam('group_by', 'Comma-separated: key, team, model, provider, day, hour (UTC), end_user, tag (end_user and tag not together; by tag a request counts under each of its tags, totals once) (default day,key,model)'),
            queryParam('from', 'Inclusive, ISO 8601 (default: 7 days ago)'),
            queryParam('to', 'Exclusive, ISO 8601; a date alone includes that day'),
            queryParam('key_id', 'Only this key'),
            queryParam('team_id', 'Only this team'),
            queryParam('limit', 'Groups a page, 1-10000 (default 1000); not with format=csv', { type: 'integer', minimum: 1, maximum: 10000 }),
            queryParam('cursor', 'The next_cursor of the previous page; it carries the report (group_by, from, to, key_id, team_id), which may be left out or must be the same; not with format=csv'),
            queryParam('format', 'json (default: a page) or csv (every group, streamed, with a header row)', { type: 'string', enum: ['json', 'csv'] }),
          ],
        },
      ),
    },
  };
}
