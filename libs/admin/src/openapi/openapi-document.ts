/**
 * `GET /openapi.json`: OpenAPI 3.1 for every route the gateway serves — the three chat dialects,
 * model lists, `/v1/key`, `/v1/route`, the admin API, metrics and probes. Written by hand beside
 * the routes and held to them by `openapi-drift.spec.ts` (every controller route is documented,
 * every documented route exists) and `test/openapi.e2e-spec.ts` (the running gateway answers each).
 */

import { DASHBOARD_SCHEMAS, DASHBOARD_TAGS, dashboardPaths } from './openapi-dashboard';
import { RESPONSES_SCHEMAS, RESPONSES_TAG, responsesPaths } from './openapi-responses';
import { EMBEDDING_SCHEMAS, embeddingPaths } from './openapi-embeddings';
import { MODEL_RECORD_SCHEMAS } from './openapi-model-record';
import { CHAT_ANSWERS, CHAT_ANSWER_SCHEMAS } from './openapi-chat-answers';
import { REQUEST_SCHEMAS, requestPaths } from './openapi-requests';
import { USAGE_SCHEMAS, usagePaths } from './openapi-usage';
import { WEBHOOK_SCHEMAS, WEBHOOKS_TAG, webhookPaths } from './openapi-webhooks';
import { GUARDRAIL_SCHEMAS, GUARDRAILS_FIELD } from './openapi-guardrails';

import { ADMIN_ERRORS, ADMIN_SECURITY, CLIENT_SECURITY, ERRORS, GEMINI_SECURITY, body, json, pathParam, queryParam, ref, type Json, type Operation } from './openapi-parts';

const ROUTING_FIELDS: Json = {
  models: { type: 'array', items: { type: 'string' }, description: 'Fallback chain after `model`' },
  route_knob: { type: 'number', minimum: 0, maximum: 1, description: 'rosetta/auto: 0 cheapest … 1 strongest' },
  provider_order: { type: 'array', items: { type: 'string' } },
  provider_only: { type: 'array', items: { type: 'string' } },
  provider_ignore: { type: 'array', items: { type: 'string' } },
  provider_sort: { type: 'string', enum: ['price', 'throughput', 'latency'] },
  allow_fallbacks: { type: 'boolean' },
  provider_configs: { type: 'object', description: 'Per-provider api_key / base_url of the caller (BYOK); base_url passes the SSRF guard' },
};

/** Attribution for the ledger (decision 0033): they win over the body's user field and metadata.tags. */
const ATTRIBUTION_HEADERS: Json[] = [
  { name: 'x-rosetta-end-user', in: 'header', required: false, schema: { type: 'string', maxLength: 256 }, description: 'Who the request is for (visible ASCII); recorded as end_user, held to the key\'s end_user_budget_usd' },
  { name: 'x-rosetta-tags', in: 'header', required: false, schema: { type: 'string' }, description: 'Comma-separated tags (at most 16, each 1-64 of letters, digits and _ - . : / = @ +); recorded as tags' },
];

/** A chat route: its request schema with the routing fields, and its answer (JSON, or a stream when `stream` is set). */
function chat(summary: string, tags: string[], schema: string, security: Json[], extra: Partial<Operation> = {}, answer: Json = CHAT_ANSWERS[schema as keyof typeof CHAT_ANSWERS] ?? { type: 'object' }): Operation {
  return {
    summary,
    tags,
    security,
    requestBody: body({ allOf: [ref(schema), { type: 'object', properties: ROUTING_FIELDS }] }),
    responses: {
      '200': {
        description: 'The answer; `text/event-stream` when streamed',
        headers: {
          'x-request-id': { schema: { type: 'string' }, description: "The gateway's own id (a caller's x-request-id is kept as client_request_id)" },
          'x-rosetta-model': { schema: { type: 'string' } },
          'x-rosetta-provider': { schema: { type: 'string' } },
          'x-rosetta-cost-usd': { schema: { type: 'string' }, description: 'Non-streamed answers: what it cost' },
        },
        content: { 'application/json': { schema: answer }, 'text/event-stream': { schema: { type: 'string' } } },
      },
      ...ERRORS,
    },
    ...extra,
    parameters: [...ATTRIBUTION_HEADERS, ...((extra['parameters'] as Json[] | undefined) ?? [])],
  };
}

function admin(summary: string, tag: string, responses: Json, extra: Json = {}): Operation {
  return { summary, tags: [tag], security: ADMIN_SECURITY, responses: { ...responses, ...ADMIN_ERRORS }, ...extra };
}

/** `cache` and `prompt_cache` on a plan or key (ARCHITECTURE §9): null on a key follows its plan. */
const CACHE_FIELDS: Json = {
  cache: {
    type: ['object', 'null'],
    description: 'The response cache; null: as the plan (a plan: off). ttl_s defaults to 3600, similarity to 0.95',
    properties: { mode: { type: 'string', enum: ['off', 'exact', 'semantic'] }, ttl_s: { type: 'integer', minimum: 1, maximum: 2592000 }, similarity: { type: 'number', minimum: 0, maximum: 1 } },
    required: ['mode'],
  },
  prompt_cache: { type: ['string', 'null'], enum: ['auto', 'off', null], description: 'auto: the gateway places prompt-cache breakpoints (Claude) and sends prompt_cache_key (OpenAI)' },
};
const KEY_FIELDS: Json = {
  name: { type: 'string' },
  plan: { type: 'string', description: 'free | pro | enterprise | a plan of yours' },
  team_id: { type: ['string', 'null'] },
  rpm: { type: ['integer', 'null'], minimum: 1 },
  tpm: { type: ['integer', 'null'], minimum: 1 },
  expires_at: { type: ['string', 'null'], format: 'date-time', description: 'Must be in the future' },
  budget_usd: { type: ['string', 'number', 'null'] },
  end_user_budget_usd: { type: ['string', 'number', 'null'], description: "Each end user's budget (x-rosetta-end-user or the dialect's user field) over budget_period; requests without an end user are not held to it" },
  budget_period: { type: ['string', 'null'], enum: ['day', 'month', 'total', null], description: 'The period of budget_usd and end_user_budget_usd' },
  models: { type: ['array', 'null'], items: { type: 'string' }, description: 'Allow-list; rosetta/auto chooses inside it' },
  ...CACHE_FIELDS,
  ...GUARDRAILS_FIELD,
};
const TEAM_FIELDS: Json = { name: { type: 'string' }, budget_usd: KEY_FIELDS['budget_usd'], budget_period: { type: ['string', 'null'], enum: ['day', 'month', 'total', null] }, ...GUARDRAILS_FIELD };
const PLAN_FIELDS: Json = { rpm: { type: ['integer', 'null'], minimum: 1 }, tpm: { type: ['integer', 'null'], minimum: 1 }, ...CACHE_FIELDS, ...GUARDRAILS_FIELD };
const ID = pathParam('id', 'The object id');
const INCLUDE_SPEND = queryParam('include', '`spend`: add spend_usd, spend_period, remaining_usd, resets_at (the budget period, else this UTC month)', { type: 'string', enum: ['spend'] });

function paths(): Record<string, Record<string, Operation>> {
  const geminiModel = pathParam('model', "A model id, slash kept: rosetta/gemini-2.5-flash (Gemini's `models/` prefix optional)");
  const geminiRoute = 'POST /v1beta/models/{path}';
  return {
    '/v1/chat/completions': { post: chat('Chat completion (OpenAI dialect)', ['Dialect A: OpenAI chat'], 'OpenAIChatRequest', CLIENT_SECURITY) },
    '/v1/messages': { post: chat('Message (Anthropic dialect)', ['Dialect B: Anthropic messages'], 'AnthropicMessagesRequest', CLIENT_SECURITY) },
    '/v1/messages/count_tokens': {
      post: { summary: 'Count the prompt tokens of a message request', tags: ['Dialect B: Anthropic messages'], security: CLIENT_SECURITY, requestBody: body(ref('AnthropicMessagesRequest')), responses: { '200': json({ type: 'object', properties: { input_tokens: { type: 'integer' } } }), ...ERRORS } },
    },
    '/v1beta/models': { get: { summary: 'Models (Gemini dialect)', tags: ['Dialect C: Gemini'], security: GEMINI_SECURITY, responses: { '200': json({ type: 'object' }), ...ERRORS } } },
    '/v1beta/models/{model}': { get: { summary: 'One model (Gemini dialect)', tags: ['Dialect C: Gemini'], security: GEMINI_SECURITY, parameters: [geminiModel], responses: { '200': json({ type: 'object' }), ...ERRORS }, 'x-route': 'GET /v1beta/models/{path}' } },
    '/v1beta/models/{model}:generateContent': { post: chat('Generate content (Gemini dialect)', ['Dialect C: Gemini'], 'GeminiRequest', GEMINI_SECURITY, { parameters: [geminiModel], 'x-route': geminiRoute }) },
    '/v1beta/models/{model}:streamGenerateContent': {
      post: chat('Streamed generate content: `alt=sse` for server-sent events, else a JSON array', ['Dialect C: Gemini'], 'GeminiRequest', GEMINI_SECURITY, {
        parameters: [geminiModel, queryParam('alt', '`sse` or `json` (default); anything else is a 400', { type: 'string', enum: ['sse', 'json'] })],
        'x-route': geminiRoute,
      }, { type: 'array', items: ref('GeminiResponse'), description: 'Without alt=sse: the streamed chunks as one JSON array' }),
    },
    '/v1beta/models/{model}:countTokens': {
      post: { summary: 'Count tokens (Gemini dialect)', tags: ['Dialect C: Gemini'], security: GEMINI_SECURITY, parameters: [geminiModel], requestBody: body(ref('GeminiRequest')), responses: { '200': json({ type: 'object', properties: { totalTokens: { type: 'integer' } } }), ...ERRORS }, 'x-route': geminiRoute },
    },
    ...responsesPaths({ chat, json, pathParam, queryParam, errors: ERRORS, security: CLIENT_SECURITY }),
    ...embeddingPaths({ ref, json, body, errors: ERRORS, clientSecurity: CLIENT_SECURITY, geminiSecurity: GEMINI_SECURITY, geminiModel, geminiRoute, routingFields: ROUTING_FIELDS }),
    '/v1/models': { get: { summary: 'Models this key may call', tags: ['Models'], security: CLIENT_SECURITY, responses: { '200': json({ type: 'object', properties: { object: { const: 'list' }, data: { type: 'array', items: { type: 'object' } } } }), ...ERRORS } } },
    '/v1/models/{id}': {
      get: { summary: "A model's record: endpoints, prices, live status and uptime", tags: ['Models'], security: CLIENT_SECURITY, parameters: [pathParam('id', 'rosetta/<name> (slash kept) or the integer id')], responses: { '200': json(ref('ModelRecord')), ...ERRORS } },
    },
    '/v1/key': { get: { summary: "The caller's own key: plan, limits, budgets, spend, team, models", tags: ['Keys'], security: CLIENT_SECURITY, responses: { '200': json(ref('KeyInfo')), '401': ERRORS['401'] } } },
    '/v1/route': { post: { summary: 'What rosetta/auto would choose for a request, and why, without calling it', tags: ['Router'], security: CLIENT_SECURITY, requestBody: body(ref('OpenAIChatRequest')), responses: { '200': json({ type: 'object' }), ...ERRORS } } },

    '/admin/keys': {
      post: admin('Issue a key (the secret is shown only in this answer)', 'Admin: keys', { '201': json({ type: 'object', properties: { key: { type: 'string' } } }, 'Created') }, { requestBody: body({ type: 'object', required: ['name', 'plan'], properties: KEY_FIELDS, additionalProperties: false }) }),
      get: admin('List keys (never their secrets), with last_used_at; include=spend adds what each spent this period', 'Admin: keys', { '200': json({ type: 'array', items: { type: 'object' } }) }, { parameters: [INCLUDE_SPEND] }),
    },
    '/admin/keys/{id}': {
      get: admin('One key, with spend_usd this period', 'Admin: keys', { '200': json({ type: 'object' }) }, { parameters: [ID] }),
      patch: admin('Change a key; every replica within a second (`null` clears a field)', 'Admin: keys', { '200': json({ type: 'object' }) }, { parameters: [ID], requestBody: body({ type: 'object', properties: KEY_FIELDS, additionalProperties: false }) }),
      delete: admin('Revoke a key, on every replica at once', 'Admin: keys', { '200': json({ type: 'object' }) }, { parameters: [ID] }),
    },
    '/admin/teams': {
      post: admin('Create a team', 'Admin: teams', { '201': json({ type: 'object' }, 'Created') }, { requestBody: body({ type: 'object', required: ['name'], properties: TEAM_FIELDS, additionalProperties: false }) }),
      get: admin('List teams; include=spend adds what each spent this period', 'Admin: teams', { '200': json({ type: 'array', items: { type: 'object' } }) }, { parameters: [INCLUDE_SPEND] }),
    },
    '/admin/teams/{id}': {
      get: admin('One team, with spend_usd this period', 'Admin: teams', { '200': json({ type: 'object' }) }, { parameters: [ID] }),
      patch: admin('Change a team', 'Admin: teams', { '200': json({ type: 'object' }) }, { parameters: [ID], requestBody: body({ type: 'object', properties: TEAM_FIELDS, additionalProperties: false }) }),
    },
    '/admin/plans': { get: admin('List plans', 'Admin: plans', { '200': json({ type: 'array', items: ref('Plan') }) }) },
    '/admin/plans/{name}': {
      get: admin('One plan', 'Admin: plans', { '200': json(ref('Plan')) }, { parameters: [pathParam('name', 'Plan name')] }),
      put: admin('Create (201) or replace (200) a plan whole; both limits required, null = unlimited', 'Admin: plans', { '200': json(ref('Plan')), '201': json(ref('Plan'), 'Created') }, { parameters: [pathParam('name', 'Plan name')], requestBody: body({ type: 'object', required: ['rpm', 'tpm'], properties: PLAN_FIELDS, additionalProperties: false }) }),
      patch: admin('Change only the limits and caching given', 'Admin: plans', { '200': json(ref('Plan')) }, { parameters: [pathParam('name', 'Plan name')], requestBody: body({ type: 'object', properties: PLAN_FIELDS, additionalProperties: false }) }),
      delete: admin('Delete a plan (409 while keys use it)', 'Admin: plans', { '200': json({ type: 'object' }), '409': json(ref('OpenAIError'), 'Keys are on this plan') }, { parameters: [pathParam('name', 'Plan name')] }),
    },
    '/admin/providers': { get: admin("Providers, whether each is configured, and their endpoints (never their keys) with each endpoint's live health: status, uptime, TTFT / latency / throughput percentiles, circuit", 'Admin: registry', { '200': json({ type: 'array', items: { type: 'object' } }) }) },
    '/admin/providers/{slug}': {
      put: admin('Add or change a provider and its endpoints (PROVIDERS_FILE shape); api_key is stored encrypted', 'Admin: registry', { '200': json({ type: 'object' }) }, { parameters: [pathParam('slug', 'Provider slug')], requestBody: body({ type: 'object' }) }),
      delete: admin('Remove a provider', 'Admin: registry', { '200': json({ type: 'object' }) }, { parameters: [pathParam('slug', 'Provider slug')] }),
    },
    '/admin/models/{name}': {
      put: admin('Model metadata (display_name, author, description, distillable) and its rosetta/auto prior (router_prior; null clears it)', 'Admin: registry', { '200': json({ type: 'object' }) }, { parameters: [pathParam('name', 'rosetta/<name>, slash kept')], requestBody: body({ type: 'object' }), 'x-route': 'PUT /admin/models/{name}' }),
    },
    ...requestPaths(admin),
    ...webhookPaths(admin),
    ...usagePaths(admin),
    ...dashboardPaths({ json, body, pathParam, queryParam, ref, admin, adminErrors: ADMIN_ERRORS }),
    '/metrics': { get: admin("This replica's metrics, Prometheus text format", 'Operations', { '200': { description: 'Prometheus text', content: { 'text/plain': { schema: { type: 'string' } } } } }) },
    '/openapi.json': { get: { summary: 'This document', tags: ['Operations'], security: [], responses: { '200': json({ type: 'object' }) } } },
    '/docs': { get: { summary: 'This document, rendered', tags: ['Operations'], security: [], responses: { '200': { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } } } } },
    '/healthz': { get: { summary: 'Liveness: the process answers', tags: ['Operations'], security: [], responses: { '200': json({ type: 'object' }) } } },
    '/readyz': { get: { summary: 'Readiness: database and registry ready, not draining', tags: ['Operations'], security: [], responses: { '200': json({ type: 'object' }), '503': json({ type: 'object' }, 'Not ready') } } },
  };
}

const SCHEMAS: Json = {
  OpenAIError: {
    type: 'object',
    description: "Dialect A's envelope; /v1/messages answers Anthropic's ({type: 'error', error: {type, message}}) and /v1beta Google's ({error: {code, message, status}}), each with request_id",
    properties: { error: { type: 'object', properties: { message: { type: 'string' }, type: { type: 'string' }, code: {}, param: { type: ['string', 'null'] } } }, request_id: { type: 'string' } },
  },
  OpenAIChatRequest: {
    type: 'object',
    required: ['messages'],
    properties: {
      model: { type: 'string', default: 'rosetta/auto' },
      messages: { type: 'array', items: ref('OpenAIChatMessage') },
      stream: { type: 'boolean' },
      stream_options: { type: 'object', properties: { include_usage: { type: 'boolean' } } },
      max_tokens: { type: 'integer' },
      max_completion_tokens: { type: 'integer' },
      tools: { type: 'array', items: { type: 'object' } },
      tool_choice: {},
      temperature: { type: 'number' },
      reasoning_effort: { type: 'string', enum: ['low', 'medium', 'high'] },
    },
  },
  AnthropicMessagesRequest: {
    type: 'object',
    required: ['max_tokens', 'messages'],
    properties: {
      model: { type: 'string', default: 'rosetta/auto' },
      max_tokens: { type: 'integer' },
      system: { description: 'Text, or an array of text blocks' },
      messages: {
        type: 'array',
        items: { type: 'object', required: ['role', 'content'], properties: { role: { type: 'string', enum: ['user', 'assistant'] }, content: { description: 'Text, or an array of blocks (text, image, document, tool_use, tool_result, thinking)' } } },
      },
      stream: { type: 'boolean' },
      tools: { type: 'array', items: { type: 'object' } },
      thinking: { type: 'object' },
      metadata: { type: 'object' },
    },
  },
  GeminiRequest: {
    type: 'object',
    required: ['contents'],
    properties: {
      contents: { type: 'array', items: { type: 'object', required: ['parts'], properties: { role: { type: 'string', enum: ['user', 'model'] }, parts: { type: 'array', items: { type: 'object', description: 'text, inlineData, fileData, functionCall or functionResponse' } } } } }, systemInstruction: { type: 'object' }, tools: { type: 'array', items: { type: 'object' } }, generationConfig: { type: 'object' } },
  },
  KeyInfo: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      plan: { type: 'string' },
      team: { type: ['object', 'null'] },
      limits: { type: 'object', properties: { rpm: { type: ['integer', 'null'] }, tpm: { type: ['integer', 'null'] } } },
      budget: { type: ['object', 'null'], properties: { usd: { type: 'string' }, period: { type: 'string' }, spent_usd: { type: 'string' }, remaining_usd: { type: 'string' }, resets_at: { type: ['string', 'null'] } } },
      models: { type: ['array', 'null'], items: { type: 'string' } },
    },
  },
  Plan: { type: 'object', properties: { name: { type: 'string' }, rpm: { type: ['integer', 'null'] }, tpm: { type: ['integer', 'null'] }, ...CACHE_FIELDS, ...GUARDRAILS_FIELD } },
  ...RESPONSES_SCHEMAS,
  ...EMBEDDING_SCHEMAS,
  ...MODEL_RECORD_SCHEMAS,
  ...DASHBOARD_SCHEMAS,
  ...REQUEST_SCHEMAS,
  ...USAGE_SCHEMAS,
  ...WEBHOOK_SCHEMAS,
  ...GUARDRAIL_SCHEMAS,
  ...CHAT_ANSWER_SCHEMAS,
};

export interface DocumentedRoute {
  method: string;
  path: string;
  /** The Nest route that serves it: `METHOD /path` with `{param}` for `:param` and `*param`. */
  route: string;
  operation: Operation;
}

/** Every documented operation with the route that serves it (for the drift tests). */
export function documentedRoutes(): DocumentedRoute[] {
  return Object.entries(paths()).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation, route: operation['x-route'] ?? `${method.toUpperCase()} ${path}` })),
  );
}

export function openApiDocument(namespace: string): Json {
  const document = JSON.stringify({
    openapi: '3.1.0',
    info: {
      title: 'Rosetta',
      version: '1.0.0',
      description:
        'A self-hosted gateway and router for language models. Clients speak OpenAI chat completions, Anthropic messages, Gemini generateContent or the OpenAI Responses API; ' +
        `any ${namespace}/* model answers in the caller's dialect, streaming included. ${namespace}/auto (the default model) routes each prompt to the model that suits it.`,
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'Dialect A: OpenAI chat' },
      { name: 'Dialect B: Anthropic messages' },
      { name: 'Dialect C: Gemini' },
      { name: RESPONSES_TAG },
      { name: 'Embeddings' },
      { name: 'Models' },
      { name: 'Keys' },
      { name: 'Router' },
      { name: 'Admin: keys' },
      { name: 'Admin: teams' },
      { name: 'Admin: plans' },
      { name: 'Admin: registry' },
      { name: 'Admin: usage' },
      { name: WEBHOOKS_TAG },
      ...DASHBOARD_TAGS.map((name) => ({ name })),
      { name: 'Operations' },
    ],
    paths: paths(),
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A Rosetta key, rsk_…' },
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer rsk_…' },
        googApiKey: { type: 'apiKey', in: 'header', name: 'x-goog-api-key' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'key' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
        dashboardSession: { type: 'apiKey', in: 'cookie', name: 'rosetta_session', description: 'A dashboard session (POST /admin/session); changes also need the x-rosetta-dashboard header. Named __Host-rosetta_session over https.' },
      },
    },
  });
  // The default model follows MODEL_NAMESPACE.
  return JSON.parse(namespace === 'rosetta' ? document : document.replaceAll('rosetta/', `${namespace}/`)) as Json;
}
