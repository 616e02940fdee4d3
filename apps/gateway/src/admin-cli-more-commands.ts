/**
 * The admin CLI's commands for providers, the request list, the audit log and alert webhooks —
 * what the dashboard's Providers, Requests, Audit and Alerts pages show (issues 27 and 31). Pure,
 * like the others: a provider's body is named as a file, which admin-cli.ts reads.
 */
import type { Call, Command, Option } from './admin-cli-commands';
import { need, path, withQuery, type Values } from './admin-cli-bodies';

/** A GET with each given option as its query parameter. */
function listing(base: string, values: Values, parameters: Record<string, string>): Call {
  return { method: 'GET', path: withQuery(base, values, parameters) };
}

const PAGE: Record<string, Option> = {
  limit: { type: 'string', arg: '<N>', help: 'how many rows (default 50, at most 200)' },
  before: { type: 'string', arg: '<cursor>', help: 'the next_cursor of the previous page' },
};

const REQUEST_FILTERS: Record<string, Option> = {
  ...PAGE,
  key: { type: 'string', arg: '<key-id>', help: 'only this key' },
  team: { type: 'string', arg: '<team-id>', help: 'only this team' },
  model: { type: 'string', arg: '<model>', help: 'only this model (served or requested)' },
  'end-user': { type: 'string', arg: '<end-user>', help: 'only requests for this end user' },
  tag: { type: 'string', arg: '<tag>', help: 'only requests with this tag' },
  status: { type: 'string', arg: '<ok|error|NNN>', help: 'only answers with this outcome or HTTP status' },
  since: { type: 'string', arg: '<date>', help: 'from (inclusive): 2026-11-01 or 2026-11-01T08:00:00Z' },
  until: { type: 'string', arg: '<date>', help: 'to (exclusive)' },
};

const AUDIT_FILTERS: Record<string, Option> = {
  ...PAGE,
  action: { type: 'string', arg: '<action|kind>', help: 'one action (key.revoke) or a kind (key)' },
  actor: { type: 'string', arg: '<actor>', help: 'only changes by this actor' },
  target: { type: 'string', arg: '<id>', help: 'only changes to this key, team, plan or provider' },
  from: { type: 'string', arg: '<date>', help: 'from (inclusive)' },
  to: { type: 'string', arg: '<date>', help: 'to (exclusive)' },
};

/** `--events a,b`: the list, or a usage mistake naming the option. */
function eventList(values: Values): string[] {
  const raw = values['events'];
  if (typeof raw !== 'string' || raw.trim() === '') throw new Error('webhooks add needs --events, e.g. --events budget.threshold,spend.daily');
  return raw.split(',').map((event) => event.trim()).filter(Boolean);
}

const WEBHOOK_COMMANDS: readonly Command[] = [
  {
    name: 'webhooks add',
    summary: 'send alerts to a URL (POST JSON, signed with x-rosetta-signature); without --secret one is generated and shown once',
    options: {
      url: { type: 'string', arg: '<url>', help: 'where to POST; a private or loopback host only if listed in WEBHOOK_ALLOW_HOSTS' },
      events: { type: 'string', arg: '<event,...>', help: 'budget.threshold, provider.circuit_open, provider.circuit_closed, guardrail.blocked, spend.daily' },
      secret: { type: 'string', arg: '<secret>', help: 'the HMAC key the receiver verifies with (16 to 512 characters)' },
    },
    build(values) {
      const url = values['url'];
      if (typeof url !== 'string') throw new Error('webhooks add needs --url');
      const secret = values['secret'];
      return { method: 'POST', path: '/admin/webhooks', body: { url, events: eventList(values), ...(typeof secret === 'string' ? { secret } : {}) } };
    },
  },
  { name: 'webhooks list', summary: 'alert webhooks, their events and last delivery (never their secrets)', options: {}, build: () => ({ method: 'GET', path: '/admin/webhooks' }) },
  {
    name: 'webhooks remove',
    target: '<id>',
    summary: 'stop sending alerts to a webhook (its pending deliveries are dropped)',
    options: {},
    build: (_, id) => ({ method: 'DELETE', path: path('/admin/webhooks', need(id, 'the webhook id')) }),
  },
];

export const MORE_COMMANDS: readonly Command[] = [
  { name: 'providers list', summary: 'providers, whether each is configured, their endpoints and live health (never their keys)', options: {}, build: () => ({ method: 'GET', path: '/admin/providers' }) },
  {
    name: 'providers set',
    target: '<slug>',
    summary: 'add or change a provider and its endpoints from a JSON or YAML file in the PROVIDERS_FILE shape (one provider)',
    options: { file: { type: 'string', arg: '<path>', help: 'the provider: {protocol, base_url, api_key or api_key_env, endpoints: [...]}' } },
    build(values, slug) {
      const file = values['file'];
      if (typeof file !== 'string') throw new Error('providers set needs --file');
      return { method: 'PUT', path: path('/admin/providers', need(slug, 'the provider slug')), bodyFile: file };
    },
  },
  {
    name: 'providers delete',
    target: '<slug>',
    summary: 'remove a provider (a built-in one is disabled instead: providers set with disabled: true)',
    options: {},
    build: (_, slug) => ({ method: 'DELETE', path: path('/admin/providers', need(slug, 'the provider slug')) }),
  },
  {
    name: 'requests list',
    summary: 'recent requests from the ledger, newest first',
    options: REQUEST_FILTERS,
    build: (values) => listing('/admin/requests', values, { limit: 'limit', before: 'before', key: 'key_id', team: 'team_id', model: 'model', 'end-user': 'end_user', tag: 'tag', status: 'status', since: 'since', until: 'until' }),
  },
  {
    name: 'audit list',
    summary: 'the audit log of admin changes and sign-ins, newest first',
    options: AUDIT_FILTERS,
    build: (values) => listing('/admin/audit', values, { limit: 'limit', before: 'before', action: 'action', actor: 'actor', target: 'target', from: 'from', to: 'to' }),
  },
  ...WEBHOOK_COMMANDS,
];
