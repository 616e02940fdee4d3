import { type GuardrailCheck } from './guardrail-check';
import { parseGuardrailPolicy } from './guardrail-policy';

/** One check in the admin API's shape (and the jsonb column's). */
export interface GuardrailCheckJson {
  check: string;
  on: string;
  action: string;
  kinds?: string[];
  patterns?: Array<string | { pattern: string; name: string }>;
  ignore_case?: boolean;
  url?: string;
  timeout_ms?: number;
  fail?: string;
  model?: string;
  categories?: string[];
}

/**
 * A policy as the admin API shows it and the database keeps it (jsonb): the admin's own field
 * names, with defaults written out (`fail`, `timeout_ms`, `ignore_case`), so what GET returns can
 * be sent back as it is.
 */
export function presentGuardrails(checks: readonly GuardrailCheck[] | null): GuardrailCheckJson[] | null {
  if (checks === null) return null;
  return checks.map((check): GuardrailCheckJson => {
    const common = { check: check.check, on: check.on, action: check.action };
    switch (check.check) {
      case 'pii':
      case 'secrets':
        return check.kinds ? { ...common, kinds: [...check.kinds] } : common;
      case 'regex':
        return { ...common, patterns: check.patterns.map((p) => (p.name === undefined ? p.pattern : { pattern: p.pattern, name: p.name })), ignore_case: check.ignoreCase };
      case 'webhook':
        return { ...common, url: check.url, timeout_ms: check.timeoutMs, fail: check.fail };
      case 'model':
        return check.categories ? { ...common, model: check.model, categories: [...check.categories] } : { ...common, model: check.model };
    }
  });
}

/**
 * What a stored policy blocks with when it no longer validates (written by hand, or by a later
 * version with checks this one does not know): every non-empty input, named as such. Failing
 * open would let through what a compliance team signed off as stopped.
 */
export const INVALID_STORED_POLICY: readonly GuardrailCheck[] = Object.freeze([
  { check: 'regex', on: 'input', action: 'block', patterns: [{ pattern: '[\\s\\S]', name: 'invalid_policy' }], ignoreCase: false },
] satisfies GuardrailCheck[]);

/** A jsonb column's policy as typed checks; null (or an empty list) when the level has none. */
export function guardrailsFromColumn(value: unknown): GuardrailCheck[] | null {
  if (value === null || value === undefined) return null;
  const parsed = parseGuardrailPolicy(value);
  if (!parsed.ok) return [...INVALID_STORED_POLICY];
  return parsed.checks.length > 0 ? parsed.checks : null;
}

/** The jsonb column's text for a policy (null: none); what `guardrailsFromColumn` reads back. */
export function guardrailsColumn(checks: readonly GuardrailCheck[] | null): string | null {
  const shown = presentGuardrails(checks);
  return shown && shown.length > 0 ? JSON.stringify(shown) : null;
}
