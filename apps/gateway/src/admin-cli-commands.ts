/**
 * The admin CLI's commands: each turns its arguments into one admin API call, or refuses them with
 * a message that says what to type instead. Pure (no I/O), so every command is unit-tested.
 */
import { parseArgs } from 'node:util';
import { GUARDRAILS, keyBody, need, path, planBody, teamBody, withGuardrailsFile, withQuery, type Values } from './admin-cli-bodies';
import { MORE_COMMANDS } from './admin-cli-more-commands';

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** The answer is CSV text, printed as is. */
  csv?: boolean;
  /** The body is this JSON or YAML file (read by the CLI, not here). */
  bodyFile?: string;
  /** The body's `guardrails` is this JSON or YAML file's list (read by the CLI, not here). */
  guardrailsFile?: string;
}

export type Parsed = { kind: 'call'; call: Call } | { kind: 'help'; text: string };

/** A mistake in the command line: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly help: string,
  ) {
    super(message);
  }
}


export interface Option {
  type: 'string' | 'boolean';
  /** `<N|null>`-style placeholder for the usage line. */
  arg?: string;
  help: string;
}

export interface Command {
  /** `keys create`, `usage` */
  name: string;
  /** The positional argument after the command, e.g. `<id>`. */
  target?: string;
  summary: string;
  options: Record<string, Option>;
  build(values: Values, target: string | undefined): Call;
}

const LIMIT = '<N|null>';
const limitHelp = (what: string): string => `${what} per minute: a whole number, or null for unlimited`;

/** The response cache and prompt caching of a key or a plan (issue 29); `nullMeans` says what null does there. */
function cacheOptions(nullMeans: string): Record<string, Option> {
  return {
    'cache-mode': { type: 'string', arg: '<off|exact|semantic|null>', help: `response cache: exact answers the same request again at no cost, semantic a similar last message too (needs pgvector); null ${nullMeans}` },
    'cache-ttl': { type: 'string', arg: '<seconds>', help: 'how long an answer is kept, 1 to 2592000 (default 3600); with --cache-mode' },
    'cache-similarity': { type: 'string', arg: '<0..1>', help: 'how alike the last message must be for a semantic hit (default 0.95); with --cache-mode' },
    'prompt-cache': { type: 'string', arg: '<auto|off|null>', help: `provider prompt caching: auto marks Claude's cache breakpoints and sends OpenAI a prompt_cache_key; null ${nullMeans}` },
  };
}

const KEY_FIELDS: Record<string, Option> = {
  name: { type: 'string', arg: '<name>', help: 'a name to recognise the key by' },
  plan: { type: 'string', arg: '<plan>', help: 'plan slug (see: plans list)' },
  team: { type: 'string', arg: '<team-id|null>', help: 'the team the key is charged to (see: teams list)' },
  rpm: { type: 'string', arg: LIMIT, help: `${limitHelp('requests')}; overrides the plan` },
  tpm: { type: 'string', arg: LIMIT, help: `${limitHelp('tokens')}; overrides the plan` },
  'expires-at': { type: 'string', arg: '<ISO date-time|null>', help: 'when the key stops working, e.g. 2027-01-01T00:00:00Z' },
  'budget-usd': { type: 'string', arg: '<USD|null>', help: 'dollar budget, e.g. 25 or 0.5 (with --budget-period)' },
  'budget-period': { type: 'string', arg: '<day|month|total>', help: 'what the budget covers: a UTC day, a UTC month, or all time' },
  'end-user-budget-usd': { type: 'string', arg: '<USD|null>', help: "each end user's dollar budget over --budget-period (end user: x-rosetta-end-user or the dialect's user field)" },
  models: { type: 'string', arg: '<id,id,...|null>', help: 'the only models the key may call, comma separated' },
  ...cacheOptions("inherits the plan's (the key's setting wins over its plan's)"),
  guardrails: GUARDRAILS,
};

const TEAM_FIELDS: Record<string, Option> = {
  name: { type: 'string', arg: '<name>', help: 'the team name (unique)' },
  'budget-usd': KEY_FIELDS['budget-usd']!,
  'budget-period': KEY_FIELDS['budget-period']!,
  guardrails: GUARDRAILS,
};

const PLAN_FIELDS: Record<string, Option> = {
  rpm: { type: 'string', arg: LIMIT, help: limitHelp('requests') },
  tpm: { type: 'string', arg: LIMIT, help: limitHelp('tokens') },
  ...cacheOptions('is off (keys on the plan inherit it)'),
  guardrails: GUARDRAILS,
};

export const COMMANDS: readonly Command[] = [
  {
    name: 'keys create',
    summary: 'issue a key; its secret is printed once',
    options: KEY_FIELDS,
    build(values) {
      if (values['name'] === undefined || values['plan'] === undefined) throw new Error('keys create needs --name and --plan');
      return { method: 'POST', path: '/admin/keys', body: keyBody(values) };
    },
  },
  { name: 'keys list', summary: 'list keys (never their secrets)', options: {}, build: () => ({ method: 'GET', path: '/admin/keys' }) },
  {
    name: 'keys get',
    target: '<id>',
    summary: "one key, with this period's spend",
    options: {},
    build: (_, id) => ({ method: 'GET', path: path('/admin/keys', need(id, 'the key id')) }),
  },
  {
    name: 'keys update',
    target: '<id>',
    summary: 'change only the fields given (null clears one); applies on every replica within a second',
    options: KEY_FIELDS,
    build(values, id) {
      const body = keyBody(values);
      if (Object.keys(body).length === 0) throw new Error(`keys update needs at least one of ${optionList(KEY_FIELDS)}`);
      return { method: 'PATCH', path: path('/admin/keys', need(id, 'the key id')), body };
    },
  },
  {
    name: 'keys revoke',
    target: '<id>',
    summary: 'revoke a key; refused on every replica within a second',
    options: {},
    build: (_, id) => ({ method: 'DELETE', path: path('/admin/keys', need(id, 'the key id')) }),
  },
  {
    name: 'teams create',
    summary: 'create a team, optionally with a dollar budget shared by its keys',
    options: TEAM_FIELDS,
    build(values) {
      if (values['name'] === undefined) throw new Error('teams create needs --name');
      return { method: 'POST', path: '/admin/teams', body: teamBody(values) };
    },
  },
  { name: 'teams list', summary: 'list teams', options: {}, build: () => ({ method: 'GET', path: '/admin/teams' }) },
  {
    name: 'teams get',
    target: '<id>',
    summary: "one team, with this period's spend when it has a budget",
    options: {},
    build: (_, id) => ({ method: 'GET', path: path('/admin/teams', need(id, 'the team id')) }),
  },
  {
    name: 'teams update',
    target: '<id>',
    summary: 'change only the fields given (null clears the budget)',
    options: TEAM_FIELDS,
    build(values, id) {
      const body = teamBody(values);
      if (Object.keys(body).length === 0) throw new Error(`teams update needs at least one of ${optionList(TEAM_FIELDS)}`);
      return { method: 'PATCH', path: path('/admin/teams', need(id, 'the team id')), body };
    },
  },
  { name: 'plans list', summary: 'list plans, their limits and caching', options: {}, build: () => ({ method: 'GET', path: '/admin/plans' }) },
  {
    name: 'plans set',
    target: '<name>',
    summary: 'create a plan or replace it whole: both --rpm and --tpm are required; caching left out is off',
    options: PLAN_FIELDS,
    build(values, name) {
      need(name, 'the plan name');
      const missing = ['rpm', 'tpm'].filter((field) => values[field] === undefined);
      if (missing.length > 0) {
        const given = Object.keys(PLAN_FIELDS).filter((field) => values[field] !== undefined).map((field) => ` --${field} ${String(values[field])}`).join('');
        throw new Error(
          `plans set replaces the whole plan and needs both --rpm and --tpm (missing: ${missing.map((m) => `--${m}`).join(', ')}; ` +
            `a whole number, or null for unlimited)${given ? `; to change only what you gave: plans update ${name}${given}` : ''}`,
        );
      }
      return { method: 'PUT', path: path('/admin/plans', name!), body: planBody(values) };
    },
  },
  {
    name: 'plans update',
    target: '<name>',
    summary: 'change only the limits and caching given; the others stay as they are',
    options: PLAN_FIELDS,
    build(values, name) {
      const body = planBody(values);
      if (Object.keys(body).length === 0) throw new Error(`plans update needs at least one of ${optionList(PLAN_FIELDS)}`);
      return { method: 'PATCH', path: path('/admin/plans', need(name, 'the plan name')), body };
    },
  },
  {
    name: 'plans delete',
    target: '<name>',
    summary: 'delete a plan no key uses (move its keys first with keys update --plan)',
    options: {},
    build: (_, name) => ({ method: 'DELETE', path: path('/admin/plans', need(name, 'the plan name')) }),
  },
  {
    name: 'usage',
    summary: 'requests, errors, tokens, cost, cache hits and dollars saved from the ledger, a page of groups at a time (default: the last 7 days by day, key and model; --csv for every group)',
    options: {
      'group-by': { type: 'string', arg: '<key,team,model,provider,day,hour,end_user|tag>', help: 'one or more of key, team, model, provider, day, hour, and end_user or tag, comma separated' },
      from: { type: 'string', arg: '<date>', help: 'start (inclusive): 2026-11-01 or 2026-11-01T08:00:00Z' },
      to: { type: 'string', arg: '<date>', help: 'end (exclusive; a date alone includes that day)' },
      key: { type: 'string', arg: '<key-id>', help: 'only this key' },
      team: { type: 'string', arg: '<team-id>', help: 'only this team' },
      limit: { type: 'string', arg: '<N>', help: 'groups a page, 1 to 10000 (default 1000)' },
      cursor: { type: 'string', arg: '<cursor>', help: 'the next_cursor of the previous page (it carries the report: the other options may be left out)' },
      csv: { type: 'boolean', help: 'print every group as CSV with a header row instead of a page of JSON' },
    },
    build(values) {
      if (values['csv'] && (values['limit'] !== undefined || values['cursor'] !== undefined)) {
        throw new Error('usage --csv prints every group; --limit and --cursor page the JSON answer instead');
      }
      const parameters = { 'group-by': 'group_by', from: 'from', to: 'to', key: 'key_id', team: 'team_id', limit: 'limit', cursor: 'cursor' };
      return { method: 'GET', path: withQuery('/admin/usage', values, parameters, values['csv'] ? { format: 'csv' } : {}), csv: values['csv'] === true };
    },
  },
  {
    name: 'requests get',
    target: '<id>',
    summary: "one request from the ledger, by the gateway's x-request-id or the caller's own",
    options: {},
    build: (_, id) => ({ method: 'GET', path: path('/admin/requests', need(id, 'the request id')) }),
  },
  ...MORE_COMMANDS,
];

const RESOURCES = ['keys', 'teams', 'plans', 'usage', 'requests', 'providers', 'audit', 'webhooks'];

export const ENVIRONMENT_HELP =
  'environment: ADMIN_TOKEN (required), ROSETTA_URL (default http://127.0.0.1:$ADMIN_PORT, else $PORT, else 8080)\n' +
  'output: JSON (CSV for usage --csv); exit code 0 on success, 1 when the gateway refuses or cannot be reached, 2 for a mistake in the command';

/** Turns `argv` (after `npm run admin --`) into an admin API call or a help text. */
export function buildCall(argv: readonly string[]): Parsed {
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  const words = argv.filter((arg) => arg !== '--help' && arg !== '-h');
  const [resource, action] = words;
  if (resource === undefined || resource === 'help') return { kind: 'help', text: overview() };
  if (!RESOURCES.includes(resource)) throw new UsageError(`unknown command '${resource}'`, overview());
  const name = resource === 'usage' ? 'usage' : `${resource} ${action ?? ''}`.trim();
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    const family = overview(resource);
    if (wantsHelp || action === 'help') return { kind: 'help', text: family };
    throw new UsageError(action === undefined ? `${resource} needs an action` : `unknown command '${name}'`, family);
  }
  if (wantsHelp) return { kind: 'help', text: commandHelp(command) };
  const rest = words.slice(name.split(' ').length);
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, allowPositionals: true, strict: true, options: Object.fromEntries(Object.entries(command.options).map(([k, o]) => [k, { type: o.type }])) });
  } catch (error) {
    throw new UsageError(`${command.name}: ${parseArgsMessage(error)}`, commandHelp(command));
  }
  const expected = command.target ? 1 : 0;
  if (parsed.positionals.length > expected) {
    throw new UsageError(`${command.name}: unexpected argument '${parsed.positionals[expected]}'`, commandHelp(command));
  }
  try {
    return { kind: 'call', call: withGuardrailsFile(command.build(parsed.values, parsed.positionals[0])) };
  } catch (error) {
    const message = (error as Error).message;
    throw new UsageError(message.startsWith('needs ') ? `${command.name} ${message}` : message, commandHelp(command));
  }
}

function parseArgsMessage(error: unknown): string {
  // Not `instanceof Error`: node's errors may come from another realm (as under jest).
  const message = String((error as { message?: unknown } | null)?.message ?? error);
  // node's wording: "Unknown option '--rmp'. To specify a positional argument starting with a '-', ..."
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option '${unknown[1]}'`;
  const missing = /^Option '([^']+?)(?: <value>)?' argument missing/.exec(message);
  if (missing) return `option '${missing[1]!.split(',').pop()!.trim()}' needs a value`;
  const noValue = /^Option '([^']+)' does not take an argument/.exec(message);
  if (noValue) return `option '${noValue[1]!.split(',').pop()!.trim()}' takes no value`;
  return message.split('. ')[0] ?? message;
}

export function overview(resource?: string): string {
  const shown = COMMANDS.filter((c) => resource === undefined || c.name.split(' ')[0] === resource);
  const lines = shown.map((c) => `  npm run admin -- ${[c.name, c.target].filter(Boolean).join(' ')}${Object.keys(c.options).length ? ' [options]' : ''}\n      ${c.summary}`);
  return `usage:\n${lines.join('\n')}\n\`npm run admin -- <command> --help\` lists a command's options.\n${ENVIRONMENT_HELP}`;
}

export function commandHelp(command: Command): string {
  const options = Object.entries(command.options).map(([name, o]) => `  --${name}${o.arg ? ` ${o.arg}` : ''}\n      ${o.help}`);
  return [
    `usage: npm run admin -- ${[command.name, command.target].filter(Boolean).join(' ')}${options.length ? ' [options]' : ''}`,
    `  ${command.summary}`,
    ...(options.length ? ['options:', ...options] : []),
    ENVIRONMENT_HELP,
  ].join('\n');
}

function optionList(options: Record<string, Option>): string {
  return Object.keys(options).map((name) => `--${name}`).join(', ');
}
