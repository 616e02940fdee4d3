import { MAX_REPORTED_ISSUES } from './guardrail-policy-limits';

/** One problem with an admin's policy: the field's path (`guardrails[2].patterns[0]`) and what is wrong. Never the value. */
export interface GuardrailPolicyIssue {
  path: string;
  message: string;
}

export function describeIssue(issue: GuardrailPolicyIssue): string {
  return `${issue.path}: ${issue.message}`;
}

/** Collects issues up to a bound while a policy is read. */
export class PolicyIssues {
  readonly list: GuardrailPolicyIssue[] = [];

  add(path: string, message: string): void {
    if (this.list.length < MAX_REPORTED_ISSUES) this.list.push({ path, message });
  }

  get full(): boolean {
    return this.list.length >= MAX_REPORTED_ISSUES;
  }
}

export type Fields = Record<string, unknown>;

export function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A required or optional member of a fixed set of strings. */
export function oneOf<T extends string>(issues: PolicyIssues, path: string, value: unknown, allowed: readonly T[], required: boolean): T | undefined {
  if (value === undefined) {
    if (required) issues.add(path, `is required (one of ${allowed.join(', ')})`);
    return undefined;
  }
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  issues.add(path, `must be one of ${allowed.join(', ')}`);
  return undefined;
}

/** An optional list of distinct members of a fixed set; undefined when absent or wrong. */
export function kindList<T extends string>(issues: PolicyIssues, path: string, value: unknown, allowed: readonly T[]): T[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || value.length > allowed.length) {
    issues.add(path, `must be a non-empty list of ${allowed.join(', ')}`);
    return undefined;
  }
  const kinds: T[] = [];
  value.forEach((kind, i) => {
    const parsed = oneOf(issues, `${path}[${i}]`, kind, allowed, true);
    if (parsed !== undefined && kinds.includes(parsed)) issues.add(`${path}[${i}]`, 'is listed twice');
    else if (parsed !== undefined) kinds.push(parsed);
  });
  return kinds;
}

/** Refuses fields a check does not have, so a typo does not silently switch a check off. */
export function noOtherFields(issues: PolicyIssues, path: string, fields: Fields, known: readonly string[]): void {
  for (const name of Object.keys(fields)) {
    if (!known.includes(name)) issues.add(path, `has an unknown field${/^[A-Za-z0-9_]{1,40}$/.test(name) ? ` "${name}"` : ''} (allowed: ${known.join(', ')})`);
  }
}

/** A string of 1..max characters from a safe alphabet, or undefined (and an issue). */
export function boundedString(issues: PolicyIssues, path: string, value: unknown, max: number, shape?: RegExp): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    issues.add(path, `must be a string of 1 to ${max} characters`);
    return undefined;
  }
  if (shape && !shape.test(value)) {
    issues.add(path, 'has characters it may not contain');
    return undefined;
  }
  return value;
}
