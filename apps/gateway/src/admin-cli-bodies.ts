/**
 * The admin CLI's option values turned into admin API bodies: whole-number limits, dollar amounts,
 * and `null` for "unlimited" or "clear"; a bad value throws a message naming the option.
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
    budget_period: nullable(values, 'budget-period'),
    models: typeof models === 'string' ? models.split(',').map((m) => m.trim()).filter(Boolean) : models,
  });
}

export function teamBody(values: Values): Record<string, unknown> {
  return defined({ name: text(values, 'name'), budget_usd: dollars(values, 'budget-usd'), budget_period: nullable(values, 'budget-period') });
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
