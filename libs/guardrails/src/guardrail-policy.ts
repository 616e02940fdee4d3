import {
  CHECK_ACTIONS,
  CHECK_STAGES,
  CHECK_TYPES,
  type GuardrailCheck,
  type ModelCheck,
  type RegexCheck,
  type RegexPattern,
  type WebhookCheck,
} from './guardrail-check';
import { PII_KINDS, SECRET_KINDS } from './guardrail-kinds';
import {
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  MAX_CATEGORIES,
  MAX_CATEGORY_LENGTH,
  MAX_CHECKS,
  MAX_MODEL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PATTERN_LENGTH,
  MAX_PATTERNS,
  MAX_URL_LENGTH,
  MAX_WEBHOOK_TIMEOUT_MS,
} from './guardrail-policy-limits';
import { boundedString, type Fields, type GuardrailPolicyIssue, isFields, kindList, noOtherFields, oneOf, PolicyIssues } from './policy-issues';
import { validateRegexCheck } from './validate-regex-check';

export type ParsedGuardrailPolicy = { ok: true; checks: GuardrailCheck[] } | { ok: false; issues: GuardrailPolicyIssue[] };

const COMMON_FIELDS = ['check', 'on', 'action'];
const NAME_SHAPE = /^[A-Za-z0-9_-]+$/;

/**
 * Reads the admin API's `guardrails` (a list of checks) into typed checks. Anything wrong comes
 * back as issues naming the field's path, never as an exception and never echoing the value:
 * the body is admin input, but it is logged and shown, and patterns may be long.
 */
export function parseGuardrailPolicy(input: unknown, path = 'guardrails'): ParsedGuardrailPolicy {
  const issues = new PolicyIssues();
  if (!Array.isArray(input)) return { ok: false, issues: [{ path, message: 'must be a list of checks' }] };
  if (input.length > MAX_CHECKS) return { ok: false, issues: [{ path, message: `has more than ${MAX_CHECKS} checks` }] };
  const checks: GuardrailCheck[] = [];
  for (const [index, item] of input.entries()) {
    if (issues.full) break;
    const check = parseCheck(issues, `${path}[${index}]`, item);
    if (check) checks.push(check);
  }
  return issues.list.length > 0 ? { ok: false, issues: issues.list } : { ok: true, checks };
}

function parseCheck(issues: PolicyIssues, path: string, item: unknown): GuardrailCheck | undefined {
  if (!isFields(item)) {
    issues.add(path, 'must be an object');
    return undefined;
  }
  const before = issues.list.length;
  const check = oneOf(issues, `${path}.check`, item.check, CHECK_TYPES, true);
  const on = oneOf(issues, `${path}.on`, item.on, CHECK_STAGES, true);
  const action = oneOf(issues, `${path}.action`, item.action, CHECK_ACTIONS, true);
  if (check === undefined || on === undefined || action === undefined) return undefined;
  const common = { on, action };
  let parsed: GuardrailCheck | undefined;
  switch (check) {
    case 'pii': {
      noOtherFields(issues, path, item, [...COMMON_FIELDS, 'kinds']);
      const kinds = kindList(issues, `${path}.kinds`, item.kinds, PII_KINDS);
      parsed = { check, ...common, ...(kinds && { kinds }) };
      break;
    }
    case 'secrets': {
      noOtherFields(issues, path, item, [...COMMON_FIELDS, 'kinds']);
      const kinds = kindList(issues, `${path}.kinds`, item.kinds, SECRET_KINDS);
      parsed = { check, ...common, ...(kinds && { kinds }) };
      break;
    }
    case 'regex':
      parsed = parseRegexCheck(issues, path, item, common);
      break;
    case 'webhook':
      parsed = parseWebhookCheck(issues, path, item, common);
      break;
    case 'model':
      parsed = parseModelCheck(issues, path, item, common);
      break;
  }
  return issues.list.length === before ? parsed : undefined;
}

function parseRegexCheck(issues: PolicyIssues, path: string, item: Fields, common: Pick<RegexCheck, 'on' | 'action'>): RegexCheck | undefined {
  noOtherFields(issues, path, item, [...COMMON_FIELDS, 'patterns', 'ignore_case']);
  if (item.ignore_case !== undefined && typeof item.ignore_case !== 'boolean') issues.add(`${path}.ignore_case`, 'must be true or false');
  const list = item.patterns;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_PATTERNS) {
    issues.add(`${path}.patterns`, `must be a list of 1 to ${MAX_PATTERNS} patterns`);
    return undefined;
  }
  const patterns: RegexPattern[] = [];
  list.forEach((entry, i) => {
    const pattern = parsePattern(issues, `${path}.patterns[${i}]`, entry);
    if (pattern) patterns.push(pattern);
  });
  if (patterns.length !== list.length) return undefined;
  const check: RegexCheck = { check: 'regex', ...common, patterns, ignoreCase: item.ignore_case === true };
  validateRegexCheck(issues, path, check);
  return check;
}

function parsePattern(issues: PolicyIssues, path: string, entry: unknown): RegexPattern | undefined {
  if (typeof entry === 'string') return patternText(issues, path, entry) === undefined ? undefined : { pattern: entry };
  if (!isFields(entry)) {
    issues.add(path, 'must be a pattern string or {"pattern", "name"}');
    return undefined;
  }
  noOtherFields(issues, path, entry, ['pattern', 'name']);
  const pattern = patternText(issues, `${path}.pattern`, entry.pattern);
  const name = entry.name === undefined ? undefined : boundedString(issues, `${path}.name`, entry.name, MAX_NAME_LENGTH, NAME_SHAPE);
  if (pattern === undefined || (entry.name !== undefined && name === undefined)) return undefined;
  return name === undefined ? { pattern } : { pattern, name };
}

function patternText(issues: PolicyIssues, path: string, value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_PATTERN_LENGTH) {
    issues.add(path, `must be a pattern of 1 to ${MAX_PATTERN_LENGTH} characters`);
    return undefined;
  }
  return value;
}

function parseWebhookCheck(issues: PolicyIssues, path: string, item: Fields, common: Pick<WebhookCheck, 'on' | 'action'>): WebhookCheck | undefined {
  noOtherFields(issues, path, item, [...COMMON_FIELDS, 'url', 'timeout_ms', 'fail']);
  const url = boundedString(issues, `${path}.url`, item.url, MAX_URL_LENGTH);
  if (url !== undefined && !isHttpUrl(url)) issues.add(`${path}.url`, 'must be an http or https URL');
  const timeout = item.timeout_ms ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1 || timeout > MAX_WEBHOOK_TIMEOUT_MS) {
    issues.add(`${path}.timeout_ms`, `must be a whole number of milliseconds from 1 to ${MAX_WEBHOOK_TIMEOUT_MS}`);
  }
  const fail = item.fail === undefined ? 'closed' : oneOf(issues, `${path}.fail`, item.fail, ['open', 'closed'] as const, true);
  if (url === undefined || fail === undefined || typeof timeout !== 'number') return undefined;
  return { check: 'webhook', ...common, url, timeoutMs: timeout, fail };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function parseModelCheck(issues: PolicyIssues, path: string, item: Fields, common: Pick<ModelCheck, 'on' | 'action'>): ModelCheck | undefined {
  noOtherFields(issues, path, item, [...COMMON_FIELDS, 'model', 'categories']);
  const model = boundedString(issues, `${path}.model`, item.model, MAX_MODEL_LENGTH);
  if (item.categories === undefined) return model === undefined ? undefined : { check: 'model', ...common, model };
  if (!Array.isArray(item.categories) || item.categories.length === 0 || item.categories.length > MAX_CATEGORIES) {
    issues.add(`${path}.categories`, `must be a list of 1 to ${MAX_CATEGORIES} categories`);
    return undefined;
  }
  const categories = item.categories.map((c, i) => boundedString(issues, `${path}.categories[${i}]`, c, MAX_CATEGORY_LENGTH));
  if (model === undefined || categories.some((c) => c === undefined)) return undefined;
  return { check: 'model', ...common, model, categories: categories as string[] };
}
