/**
 * The admin CLI's option values turned into admin API bodies: whole-number limits, dollar amounts,
 * cache settings, and `null` for "unlimited", "clear" or "inherit"; a bad value throws a message
 * naming the option.
 */
export type Values = Record<string, string | boolean | undefined>;

export function defined(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

function text(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** `null` (or `unlimited`) → null: a limit removed; otherwise a whole number. */
export function limit(values: Values, name: string): number | null | undefined {
  const value = text(values, name);
  if (value === undefined) return undefined;
  if (value === 'null' || value === 'unlimited') return null;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a whole number, or null for unlimited; got '${value}'`);
  return Number(value);
}

function nullable(values: Values, name: string): string | null | undefined {
  const value = text(values, name);
  return value === 'null' ? null : value;
}

function dollars(values: Values, name: string): number | null | undefined {
  const value = text(values, name);
  if (value === undefined || value === 'null') return value === 'null' ? null : undefined;
  if (!/^\d+(\.\d+)?$/.test(value)) throw new Error(`--${name} must be an amount of US dollars such as 25 or 0.5, or null; got '${value}'`);
  return Number(value);
}

const CACHE_MODES = ['off', 'exact', 'semantic'];
const PROMPT_CACHE = ['auto', 'off'];

/** One of `allowed`, or null; a word outside them throws naming the option and the choices. */
function choice(values: Values, name: string, allowed: readonly string[], nullMeans: string): string | null | undefined {
  const value = nullable(values, name);
  if (value === undefined || value === null || allowed.includes(value)) return value;
  throw new Error(`--${name} must be ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}, or null ${nullMeans}; got '${value}'`);
}

/**
 * `cache` and `prompt_cache` (issue 29). The gateway takes `cache` whole, so a TTL or a similarity
 * comes with its mode: given alone it would replace a setting the command line never showed.
 * Ranges (TTL 1 to 2592000 s, similarity 0 to 1) are the gateway's to check; it names the field.
 */
export function cachingBody(values: Values, nullMeans: string): Record<string, unknown> {
  const mode = choice(values, 'cache-mode', CACHE_MODES, nullMeans);
  const ttl = text(values, 'cache-ttl');
  const similarity = text(values, 'cache-similarity');
  const detail = ttl !== undefined ? 'cache-ttl' : similarity !== undefined ? 'cache-similarity' : undefined;
  if (detail && (mode === undefined || mode === null)) {
    throw new Error(`--${detail} goes with --cache-mode exact or semantic (the cache setting is replaced whole), e.g. --cache-mode exact --cache-ttl 600`);
  }
  if (ttl !== undefined && !/^\d+$/.test(ttl)) throw new Error(`--cache-ttl must be a whole number of seconds, 1 to 2592000; got '${ttl}'`);
  if (similarity !== undefined && !/^\d+(\.\d+)?$/.test(similarity)) throw new Error(`--cache-similarity must be a number from 0 to 1 such as 0.95; got '${similarity}'`);
  const cache = typeof mode === 'string' ? defined({ mode, ttl_s: ttl === undefined ? undefined : Number(ttl), similarity: similarity === undefined ? undefined : Number(similarity) }) : mode;
  return defined({ cache, prompt_cache: choice(values, 'prompt-cache', PROMPT_CACHE, nullMeans) });
}

/** A guardrails list given as `@file` (JSON or YAML), read by the CLI when it sends the call. */
export class GuardrailsFile {
  constructor(readonly path: string) {}
}

/** The `--guardrails` option of key, team and plan commands. */
export const GUARDRAILS = {
  type: 'string',
  arg: '<json|@file|null>',
  help: 'guardrail checks, a JSON list or @file.json/.yaml, e.g. \'[{"check":"pii","on":"both","action":"redact"}]\'; null removes them',
} as const;

/** A `--guardrails @file` leaves its list to the CLI to read: the call names the file instead. */
export function withGuardrailsFile<C extends { body?: unknown; guardrailsFile?: string }>(call: C): C {
  const body = call.body as Record<string, unknown> | undefined;
  if (!(body?.['guardrails'] instanceof GuardrailsFile)) return call;
  const { guardrails: file, ...rest } = body;
  return { ...call, body: rest, guardrailsFile: (file as GuardrailsFile).path };
}

/**
 * `--guardrails '<json list>'`, `--guardrails @checks.json` or `null` (removes the level's checks).
 * The gateway validates the checks and names the path of what is wrong; here only the JSON.
 */
export function guardrails(values: Values): unknown {
  const value = text(values, 'guardrails');
  if (value === undefined || value === 'null') return value === 'null' ? null : undefined;
  if (value.startsWith('@')) {
    if (value.length === 1) throw new Error('--guardrails @<file> needs a file name, e.g. --guardrails @checks.json');
    return new GuardrailsFile(value.slice(1));
  }
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new Error(`--guardrails must be a JSON list of checks, @<file> (JSON or YAML), or null; e.g. --guardrails '[{"check":"pii","on":"both","action":"redact"}]'`);
  }
}

export function keyBody(values: Values): Record<string, unknown> {
  const models = nullable(values, 'models');
  return defined({
    name: text(values, 'name'),
    plan: text(values, 'plan'),
    team_id: nullable(values, 'team'),
    rpm: limit(values, 'rpm'),
    tpm: limit(values, 'tpm'),
    expires_at: nullable(values, 'expires-at'),
    budget_usd: dollars(values, 'budget-usd'),
    end_user_budget_usd: dollars(values, 'end-user-budget-usd'),
    budget_period: nullable(values, 'budget-period'),
    models: typeof models === 'string' ? models.split(',').map((m) => m.trim()).filter(Boolean) : models,
    ...cachingBody(values, "to inherit the plan's"),
    guardrails: guardrails(values),
  });
}

/** A plan's limits and caching, each when given; a plan's null caching is off. */
export function planBody(values: Values): Record<string, unknown> {
  return defined({ rpm: limit(values, 'rpm'), tpm: limit(values, 'tpm'), ...cachingBody(values, 'for off'), guardrails: guardrails(values) });
}

export function teamBody(values: Values): Record<string, unknown> {
  return defined({ name: text(values, 'name'), budget_usd: dollars(values, 'budget-usd'), budget_period: nullable(values, 'budget-period'), guardrails: guardrails(values) });
}

/** `base/<id>`, the id escaped for a path segment. */
export const path = (base: string, id: string): string => `${base}/${encodeURIComponent(id)}`;

/** The positional argument, or the `needs …` refusal naming it. */
export function need(value: string | undefined, what: string): string {
  if (value === undefined || value === '') throw new Error(`needs ${what}`);
  return value;
}

/** `base?…` with each option given as its query parameter (`parameters`: option → parameter). */
export function withQuery(base: string, values: Values, parameters: Record<string, string>, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  for (const [option, parameter] of Object.entries(parameters)) if (typeof values[option] === 'string') query.set(parameter, values[option] as string);
  for (const [name, value] of Object.entries(extra)) query.set(name, value);
  const search = query.toString();
  return `${base}${search ? `?${search}` : ''}`;
}
