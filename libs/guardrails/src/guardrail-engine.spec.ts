import { compileGuardrails } from './compile-guardrails';
import { scanGuardrails } from './guardrail-engine';
import { parseGuardrailPolicy } from './guardrail-policy';
import { PII_KINDS } from './guardrail-kinds';
import { compiledPolicy as guardrails } from './guardrails-test-support';

describe('scanGuardrails', () => {
  const text = 'Mail jane@corp.example, key sk-proj-abcdefghijklmnopqrstuvwx, ticket PRJ-1234.';

  it('redacts every redact-action finding with its kind and reports each check by kind only', () => {
    const policy = guardrails([
      { check: 'pii', on: 'both', action: 'redact', kinds: ['email'] },
      { check: 'secrets', on: 'input', action: 'log' },
      { check: 'regex', on: 'input', action: 'redact', patterns: [{ pattern: 'PRJ-\\d+', name: 'ticket' }] },
    ]);
    expect(scanGuardrails(text, policy, 'input')).toEqual({
      verdicts: [
        { check: 'pii', index: 0, stage: 'input', action: 'redact', kinds: ['email'] },
        { check: 'secrets', index: 1, stage: 'input', action: 'log', kinds: ['openai_key'] },
        { check: 'regex', index: 2, stage: 'input', action: 'redact', kinds: ['ticket'] },
      ],
      redacted: 'Mail [REDACTED:email], key sk-proj-abcdefghijklmnopqrstuvwx, ticket [REDACTED:ticket].',
    });
  });

  it('names the first blocking check and redacts nothing then', () => {
    const policy = guardrails([
      { check: 'pii', on: 'input', action: 'redact' },
      { check: 'regex', on: 'input', action: 'block', patterns: ['nothing-here'] },
      { check: 'secrets', on: 'input', action: 'block' },
    ]);
    expect(scanGuardrails(text, policy, 'input')).toEqual({
      verdicts: [
        { check: 'pii', index: 0, stage: 'input', action: 'redact', kinds: ['email'] },
        { check: 'secrets', index: 2, stage: 'input', action: 'block', kinds: ['openai_key'] },
      ],
      blocked: { check: 'secrets', index: 2 },
    });
  });

  it('runs only the checks set on the stage, and leaves webhook and model checks to the caller', () => {
    const policy = guardrails([
      { check: 'pii', on: 'output', action: 'block' },
      { check: 'webhook', on: 'input', action: 'block', url: 'https://dlp.example.com' },
    ]);
    expect(scanGuardrails(text, policy, 'input')).toEqual({ verdicts: [] });
    expect(policy.external).toEqual([{ index: 1, check: { check: 'webhook', on: 'input', action: 'block', url: 'https://dlp.example.com', timeoutMs: 2000, fail: 'closed' } }]);
  });

  it('merges overlapping findings into one placeholder of the earliest kind', () => {
    const policy = guardrails([
      { check: 'secrets', on: 'input', action: 'redact', kinds: ['bearer_token', 'jwt'] },
      { check: 'regex', on: 'input', action: 'redact', patterns: [{ pattern: 'token [a-z]+ here', name: 'phrase' }] },
    ]);
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV';
    expect(scanGuardrails(`Authorization: Bearer ${jwt} and the token goes here.`, policy, 'input').redacted).toEqual(
      'Authorization: Bearer [REDACTED:bearer_token] and the [REDACTED:phrase].',
    );
  });

  it('compiles a policy once', () => {
    const parsed = parseGuardrailPolicy([{ check: 'pii', on: 'input', action: 'log' }]);
    if (!parsed.ok) throw new Error('invalid');
    expect(compileGuardrails(parsed.checks)).toBe(compileGuardrails(parsed.checks));
  });
});

describe('built-in checks on hostile text do bounded work', () => {
  const policy = guardrails([
    { check: 'pii', on: 'input', action: 'redact', kinds: [...PII_KINDS] },
    { check: 'secrets', on: 'input', action: 'redact' },
  ]);
  const hostile: Array<[string, string]> = [
    ['a long digit run', '4'.repeat(200_000)],
    ['digits with separators', '4111 '.repeat(40_000)],
    ['at signs', 'a@'.repeat(100_000)],
    ['dots and at signs', `${'a.'.repeat(50_000)}@${'b.'.repeat(50_000)}`],
    ['colons', ':'.repeat(200_000)],
    ['hex and colons', 'ab:'.repeat(70_000)],
    ['key prefixes', 'sk-'.repeat(70_000)],
    ['nested prefixes', `${'sk-a'.repeat(50_000)}`],
    ['BEGIN lines', '-----BEGIN PRIVATE KEY-----'.repeat(8_000)],
    ['bearers', 'Bearer '.repeat(30_000)],
    ['JWT starts', 'eyJ.'.repeat(50_000)],
    ['secret names', 'aws_secret_access_key='.repeat(10_000)],
    ['country codes', 'DE89 '.repeat(40_000)],
    ['plus signs', '+1 '.repeat(70_000)],
  ];
  for (const [name, text] of hostile) {
    it(name, () => {
      const meter = { steps: 0 };
      scanGuardrails(text, policy, 'input', meter);
      // Twelve detectors, each reading a character a bounded number of times; token bodies are read at most 256 ahead.
      expect(meter.steps).toBeLessThan(text.length * 300);
    });
  }

  it('random text', () => {
    let state = 5;
    const alphabet = '0123456789 -.+()@:_abcdefABCDEFXYZskeyJ\n';
    const text = Array.from({ length: 100_000 }, () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return alphabet[state % alphabet.length];
    }).join('');
    const meter = { steps: 0 };
    scanGuardrails(text, policy, 'input', meter);
    expect(meter.steps).toBeLessThan(text.length * 40);
  });
});
