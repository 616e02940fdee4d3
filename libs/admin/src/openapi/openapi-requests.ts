/** The ledger's rows in the OpenAPI document: `GET /admin/requests` and the lookup by id (openapi-document.ts merges them in). */
import { json, pathParam, queryParam, ref, type Json } from './openapi-parts';

const text = { type: ['string', 'null'] };
const count = { type: 'integer' };

export const REQUEST_SCHEMAS: Json = {
  LedgerRow: {
    type: 'object',
    description: 'One request as the ledger recorded it when its response ended',
    properties: {
      request_id: { type: 'string', description: "The gateway's own id (the response's x-request-id)" },
      client_request_id: { ...text, description: "The caller's own x-request-id, when it sent a usable one" },
      created_at: { type: 'string', format: 'date-time', description: 'When the request arrived' },
      api_key_id: text,
      key_name: { ...text, description: "The key's current name" },
      team_id: text,
      team_name: text,
      dialect: { type: 'string', description: 'openai, anthropic, gemini or responses' },
      requested_model: text,
      served_model: { ...text, description: 'Null when no model answered' },
      provider: text,
      status: { type: 'integer', description: 'The HTTP status answered' },
      error_type: text,
      input_tokens: count,
      output_tokens: count,
      cached_tokens: { ...count, description: 'Input tokens read from a provider prompt cache' },
      cache_read_tokens: { ...count, description: 'The same as cached_tokens, under the name ARCHITECTURE §9 gives it' },
      cache_write_tokens: { ...count, description: 'Input tokens written to a provider prompt cache' },
      reasoning_tokens: count,
      cost_usd: { type: 'string', description: 'USD as a decimal string, up to nine decimals' },
      cache: { type: ['string', 'null'], enum: ['hit', 'miss', null], description: 'The response cache: hit (answered from it, cost 0), miss (looked up); null when not consulted' },
      saved_usd: { type: ['string', 'null'], description: 'A hit: what the call would have cost' },
      latency_ms: count,
      ttft_ms: { type: ['integer', 'null'], description: 'Time to the first token of a stream' },
      streamed: { type: 'boolean' },
      attempts: count,
      route: { ...text, description: "rosetta/auto's decision, as in x-rosetta-route" },
      guardrails: { type: ['array', 'null'], items: ref('GuardrailVerdict'), description: 'What the guardrails found and did; null when no check found anything' },
      end_user: { ...text, description: 'Who the request was for: x-rosetta-end-user, or the dialect\'s user field (never an identity)' },
      tags: { type: ['array', 'null'], items: { type: 'string' }, description: 'x-rosetta-tags, or metadata.tags' },
    },
  },
};

export function requestPaths(admin: (summary: string, tag: string, responses: Json, extra?: Json) => Json): Record<string, Record<string, Json>> {
  const page = { type: 'object', properties: { data: { type: 'array', items: ref('LedgerRow') }, next_cursor: { type: ['string', 'null'], description: 'Pass as `before` for the next, older page; null on the last' } } };
  return {
    '/admin/requests': {
      get: admin(
        'Recent requests from the ledger, newest first, a page at a time (keyset-paged: pages hold still while new requests arrive); with format=ndjson, every matching row streamed, one JSON object per line',
        'Admin: usage',
        { '200': { description: 'A page, or the export', content: { 'application/json': { schema: page }, 'application/x-ndjson': { schema: ref('LedgerRow') } } } },
        {
        parameters: [
          queryParam('format', 'json (default: a page) or ndjson (every matching row, streamed; no limit or before)', { type: 'string', enum: ['json', 'ndjson'] }),
          queryParam('limit', '1-200 (default 50)', { type: 'integer', minimum: 1, maximum: 200 }),
          queryParam('before', 'The next_cursor of the previous page'),
          queryParam('key_id', 'Only this key'),
          queryParam('team_id', 'Only this team'),
          queryParam('model', 'Only requests that asked for or were served by this model'),
          queryParam('end_user', 'Only requests for this end user'),
          queryParam('tag', 'Only requests with this tag'),
          queryParam('status', '`error` (status 400 or more) or an exact HTTP status'),
          queryParam('since', 'Inclusive, ISO 8601 date or date-time'),
          queryParam('until', 'Exclusive, ISO 8601; a date alone includes that day'),
        ],
        },
      ),
    },
    '/admin/requests/{id}': {
      get: admin("Support lookup by the gateway's request id or the caller's client_request_id (several matches answer `{client_request_id, matches}`)", 'Admin: usage', {
        '200': json({ oneOf: [ref('LedgerRow'), { type: 'object', properties: { client_request_id: { type: 'string' }, matches: { type: 'array', items: ref('LedgerRow') } } }] }),
      }, { parameters: [pathParam('id', 'req_… or the caller’s own id')] }),
    },
  };
}
