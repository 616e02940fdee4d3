import { parseGuardrailPolicy } from './guardrail-policy';
import { describeIssue } from './policy-issues';

function issues(input: unknown): string[] {
  const parsed = parseGuardrailPolicy(input);
  return parsed.ok ? [] : parsed.issues.map(describeIssue);
}

describe('parseGuardrailPolicy', () => {
  it('reads every check type into typed values with defaults filled in', () => {
    const parsed = parseGuardrailPolicy([
      { check: 'pii', on: 'both', action: 'redact', kinds: ['email', 'card'] },
      { check: 'secrets', on: 'input', action: 'block' },
      { check: 'regex', on: 'output', action: 'log', patterns: ['ab{1,3}c', { pattern: 'PRJ-\\d{4}', name: 'project' }], ignore_case: true },
      { check: 'webhook', on: 'input', action: 'block', url: 'https://dlp.example.com/scan' },
      { check: 'model', on: 'output', action: 'block', model: 'llama-guard', categories: ['S1', 'S2'] },
    ]);
    expect(parsed).toEqual({
      ok: true,
      checks: [
        { check: 'pii', on: 'both', action: 'redact', kinds: ['email', 'card'] },
        { check: 'secrets', on: 'input', action: 'block' },
        { check: 'regex', on: 'output', action: 'log', patterns: [{ pattern: 'ab{1,3}c' }, { pattern: 'PRJ-\\d{4}', name: 'project' }], ignoreCase: true },
        { check: 'webhook', on: 'input', action: 'block', url: 'https://dlp.example.com/scan', timeoutMs: 2000, fail: 'closed' },
        { check: 'model', on: 'output', action: 'block', model: 'llama-guard', categories: ['S1', 'S2'] },
      ],
    });
  });

  it('names the field path of each problem', () => {
    expect(
      issues([
        { check: 'pii', on: 'both', action: 'redact', kinds: ['email', 'passport'] },
        { check: 'secret', on: 'input', action: 'block' },
        { check: 'regex', on: 'input', action: 'block', patterns: ['ok', '(a)\\1'] },
        { check: 'webhook', on: 'input', action: 'block', url: 'ftp://x', timeout_ms: 0, fail: 'maybe' },
        { check: 'model', on: 'sideways', action: 'block', model: '' },
      ]),
    ).toEqual([
      'guardrails[0].kinds[1]: must be one of email, phone, card, iban, ssn, ip',
      'guardrails[1].check: must be one of pii, secrets, regex, webhook, model',
      'guardrails[2].patterns[1]: backreferences are not supported (at character 3)',
      'guardrails[3].url: must be an http or https URL',
      'guardrails[3].timeout_ms: must be a whole number of milliseconds from 1 to 30000',
      'guardrails[3].fail: must be one of open, closed',
      'guardrails[4].on: must be one of input, output, both',
    ]);
  });

  it('refuses lookaround, unknown fields, duplicate kinds and unbounded output patterns', () => {
    expect(
      issues([
        { check: 'regex', on: 'input', action: 'block', patterns: ['foo(?=bar)'] },
        { check: 'regex', on: 'input', action: 'block', patterns: ['x'], pattern: 'typo' },
        { check: 'pii', on: 'input', action: 'log', kinds: ['email', 'email'] },
        { check: 'regex', on: 'both', action: 'redact', patterns: ['\\d{3}', 'id-\\d+'] },
        { check: 'regex', on: 'input', action: 'redact', patterns: ['a*'] },
        { check: 'regex', on: 'input', action: 'redact', patterns: [{ pattern: 'x', name: 'has space' }] },
      ]),
    ).toEqual([
      'guardrails[0].patterns[0]: lookahead is not supported (at character 3)',
      'guardrails[1]: has an unknown field "pattern" (allowed: check, on, action, patterns, ignore_case)',
      'guardrails[2].kinds[1]: is listed twice',
      'guardrails[3].patterns[1]: an output check needs a bounded match length: use {m,n} instead of *, + or {m,}',
      'guardrails[4].patterns[0]: pattern can match empty text',
      'guardrails[5].patterns[0].name: has characters it may not contain',
    ]);
  });

  it('bounds the size of a policy', () => {
    const many = Array.from({ length: 17 }, () => ({ check: 'pii', on: 'input', action: 'log' }));
    expect(issues(many)).toEqual(['guardrails: has more than 16 checks']);
    const patterns = Array.from({ length: 33 }, () => 'x');
    expect(issues([{ check: 'regex', on: 'input', action: 'log', patterns }])).toEqual(['guardrails[0].patterns: must be a list of 1 to 32 patterns']);
    expect(issues([{ check: 'regex', on: 'input', action: 'log', patterns: ['x'.repeat(257)] }])).toEqual([
      'guardrails[0].patterns[0]: must be a pattern of 1 to 256 characters',
    ]);
    expect(issues([{ check: 'regex', on: 'input', action: 'log', patterns: ['(((a{1,100}){1,100}){1,100})'] }])).toEqual([
      'guardrails[0].patterns[0]: pattern too large once repeats are expanded (over 4000 steps for the check)',
    ]);
    expect(issues([{ check: 'regex', on: 'input', action: 'log', patterns: ['a{1,101}'] }])).toEqual(['guardrails[0].patterns[0]: repeat bound above 100 (at character 1)']);
  });

  it('never echoes the value it refuses', () => {
    const secret = 'sk-live-do-not-echo-this';
    expect(issues([{ check: 'regex', on: 'input', action: secret }])).toEqual(['guardrails[0].action: must be one of block, redact, log']);
    expect(issues([{ check: 'regex', on: 'input', action: 'block', patterns: [`${secret}(?=x)`], [secret]: 1 }])).toEqual([
      'guardrails[0]: has an unknown field (allowed: check, on, action, patterns, ignore_case)',
      'guardrails[0].patterns[0]: lookahead is not supported (at character 24)',
    ]);
  });

  it('answers hostile shapes with issues, never by throwing', () => {
    const hostile: unknown[] = [null, 'pii', 42, {}, [null], [[]], [{ check: ['pii'] }], [{ check: 'regex', on: 'input', action: 'log', patterns: [null, 5, {}] }], [{ check: 'webhook', on: 'input', action: 'log', url: 'http://' }], [{ check: 'model', on: 'input', action: 'log', model: 'm', categories: 'S1' }], [{ __proto__: { check: 'pii' } }]];
    for (const input of hostile) expect(parseGuardrailPolicy(input).ok).toBe(false);
    expect(issues({})).toEqual(['guardrails: must be a list of checks']);
    expect(issues([{ check: 'regex', on: 'input', action: 'log', patterns: [null, 5] }])).toEqual([
      'guardrails[0].patterns[0]: must be a pattern string or {"pattern", "name"}',
      'guardrails[0].patterns[1]: must be a pattern string or {"pattern", "name"}',
    ]);
  });
});
