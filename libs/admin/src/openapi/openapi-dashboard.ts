/** The dashboard's routes in the OpenAPI document: its pages, sign-in, the audit log, the router explained (openapi-document.ts merges them in). */
import type { Json } from './openapi-parts';

export interface DashboardBuilders {
  json(schema: Json, description?: string): Json;
  body(schema: Json, required?: boolean): Json;
  pathParam(name: string, description: string): Json;
  queryParam(name: string, description: string, schema?: Json): Json;
  ref(name: string): Json;
  admin(summary: string, tag: string, responses: Json, extra?: Json): Json;
  adminErrors: Json;
}

export const DASHBOARD_TAGS = ['Admin: router', 'Admin: audit', 'Dashboard'];

const SESSION: Json = {
  type: 'object',
  properties: {
    authenticated: { type: 'boolean' },
    sso: { type: 'boolean', description: 'Sign in with SSO is offered' },
    role: { type: 'string', enum: ['admin', 'viewer'] },
    name: { type: 'string' },
    method: { type: 'string', enum: ['token', 'oidc'] },
    expires_at: { type: 'string', format: 'date-time' },
    data_plane: {
      type: 'object',
      description: 'Signed in only: where clients send requests. same_origin: this origin serves them too; else the data plane listens on `port` (ADMIN_PORT is set), at `host`, or, when null (every interface), at whatever name reaches this machine',
      properties: { same_origin: { type: 'boolean' }, host: { type: ['string', 'null'] }, port: { type: 'integer' } },
    },
  },
};
const REDIRECT: Json = { '303': { description: 'Redirect (to the identity provider, or back to /dashboard/ — with ?sso_error=<message> when sign-in failed)' } };

export function dashboardPaths(b: DashboardBuilders): Record<string, Record<string, Json>> {
  const page = (summary: string, extra: Json = {}): Json => ({
    summary,
    tags: ['Dashboard'],
    security: [],
    responses: { '200': { description: 'HTML, script or style', content: { 'text/html': { schema: { type: 'string' } } } }, '404': { description: 'No such asset' }, '503': { description: 'Not built: run npm run build' } },
    ...extra,
  });
  const error = (description: string): Json => b.json(b.ref('OpenAIError'), description);
  return {
    '/dashboard': { get: page('The admin dashboard (a single page; sign in with the admin token or SSO)') },
    '/dashboard/{path}': { get: page("The dashboard's pages (keys, usage, …) and its assets", { parameters: [b.pathParam('path', 'A page such as keys, or assets/<file>')], 'x-route': 'GET /dashboard/{path}' }) },
    '/admin/session': {
      get: { summary: 'Who is signed in to the dashboard (never 401)', tags: ['Dashboard'], security: [], responses: { '200': b.json(SESSION) } },
      post: {
        summary: 'Sign in with the admin token: sets an HttpOnly SameSite=Strict session cookie (the token is not kept); needs the x-rosetta-dashboard header',
        tags: ['Dashboard'],
        security: [],
        requestBody: b.body({ type: 'object', required: ['token'], properties: { token: { type: 'string' } } }),
        responses: { '200': b.json(SESSION), '400': b.adminErrors['400'], '401': error('Invalid admin token'), '403': error('No x-rosetta-dashboard header, or another origin'), '429': error('Too many failed sign-ins from this address') },
      },
      delete: { summary: 'Sign out: ends the session on every replica', tags: ['Dashboard'], security: [{ dashboardSession: [] }], responses: { '200': b.json({ type: 'object', properties: { authenticated: { const: false } } }) } },
    },
    '/admin/sessions': {
      delete: b.admin('Sign out all sessions: ends every dashboard session (token and SSO, the caller\'s too) on every replica', 'Dashboard', {
        '200': b.json({ type: 'object', required: ['signed_out'], properties: { signed_out: { type: 'integer', description: 'How many live sessions ended' } } }),
      }),
    },
    '/admin/session/sso': { get: { summary: 'Sign in with SSO: redirects to the OIDC provider (authorization code + PKCE)', tags: ['Dashboard'], security: [], responses: REDIRECT } },
    '/admin/session/sso/callback': { get: { summary: 'Where the OIDC provider sends the browser back; maps groups to admin or viewer and starts a session', tags: ['Dashboard'], security: [], responses: REDIRECT } },
    '/admin/route': {
      post: b.admin('What rosetta/auto would choose, and why (as POST /v1/route, without an API key); viewers may call it', 'Admin: router', { '200': b.json({ type: 'object' }) }, {
        requestBody: b.body({
          type: 'object',
          properties: { prompt: { type: 'string' }, request: { type: 'object', description: 'A request body of any dialect' }, dialect: { type: 'string' }, key_id: { type: 'string', description: 'Route as this key would (allow-list, knob)' } },
          additionalProperties: false,
        }),
      }),
    },
    '/admin/audit': {
      get: b.admin('The audit log, newest first: every admin change and sign-in, who, what, when, from where', 'Admin: audit', { '200': b.json({ type: 'object', properties: { data: { type: 'array', items: b.ref('AuditEntry') }, next_cursor: { type: ['string', 'null'] } } }) }, {
        parameters: [
          b.queryParam('limit', '1-200 (default 50)', { type: 'integer' }),
          b.queryParam('before', 'The next_cursor of the previous page'),
          b.queryParam('action', 'An action (key.revoke) or a kind (key)'),
          b.queryParam('actor', 'Part of the name of who did it'),
          b.queryParam('target', "An object's id or name"),
          b.queryParam('from', 'ISO 8601, inclusive'),
          b.queryParam('to', 'ISO 8601, exclusive'),
        ],
      }),
    },
  };
}

export const DASHBOARD_SCHEMAS: Json = {
  AuditEntry: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      at: { type: 'string', format: 'date-time' },
      actor: { type: 'string', description: '"admin token", or the SSO user' },
      role: { type: ['string', 'null'] },
      method: { type: 'string', enum: ['bearer', 'token', 'oidc'] },
      action: { type: 'string', description: 'key.create, key.update, key.revoke, team.create, team.update, plan.put, plan.update, plan.delete, provider.put, provider.delete, model.put, session.sign_in, session.sign_in_refused, session.sign_out' },
      target_type: { type: ['string', 'null'] },
      target_id: { type: ['string', 'null'] },
      target_name: { type: ['string', 'null'] },
      details: { type: ['object', 'null'], description: 'What was sent, secrets removed' },
      ip: { type: ['string', 'null'] },
      user_agent: { type: ['string', 'null'] },
      request_id: { type: ['string', 'null'] },
    },
  },
};
