import { effectiveGuardrails } from './effective-guardrails';
import { type GuardrailCheck } from './guardrail-check';
import { parseGuardrailPolicy } from './guardrail-policy';
import { blockMessage, guardrailRecord } from './guardrail-record';
import { guardrailsColumn, guardrailsFromColumn, presentGuardrails } from './policy-column';
import { redactSegments, scanSegments } from './scan-segments';

function policy(input: unknown): GuardrailCheck[] {
  const parsed = parseGuardrailPolicy(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.checks;
}

describe('effectiveGuardrails', () => {
  const key = policy([{ check: 'pii', on: 'input', action: 'redact', kinds: ['email'] }]);
  const team = policy([{ check: 'secrets', on: 'both', action: 'block' }]);
  const plan = policy([
    { check: 'regex', on: 'output', action: 'log', patterns: [{ pattern: 'PRJ-\\d{1,6}', name: 'ticket' }] },
    { check: 'webhook', on: 'input', action: 'block', url: 'https://dlp.example/check', fail: 'open' },
  ]);

  it('is nothing at all for a key, team and plan without checks', () => {
    expect(effectiveGuardrails({})).toBeUndefined();
    expect(effectiveGuardrails({ key: null, team: [], plan: undefined })).toBeUndefined();
  });

  it("applies the key's, the team's and the plan's checks, each named by its level and position", () => {
    const effective = effectiveGuardrails({ key, team, plan })!;
    expect(effective.origins).toEqual([
      { source: 'key', index: 0 },
      { source: 'team', index: 0 },
      { source: 'plan', index: 0 },
      { source: 'plan', index: 1 },
    ]);
    expect({ input: effective.input, output: effective.output }).toEqual({ input: true, output: true });
    expect(effective.inputExternal.map((e) => e.at)).toEqual([3]);
    expect(effective.outputExternal).toEqual([]);
    expect(effective.compiled.checks.map((c) => c.index)).toEqual([0, 1, 2]);
  });

  it('is built once per combination of the cached lists', () => {
    expect(effectiveGuardrails({ key, team, plan })).toBe(effectiveGuardrails({ key, team, plan }));
    expect(effectiveGuardrails({ key, plan })).not.toBe(effectiveGuardrails({ key, team, plan }));
    expect(effectiveGuardrails({ key: [...key], team, plan })).not.toBe(effectiveGuardrails({ key, team, plan }));
  });

  it('knows when nothing runs at a stage', () => {
    expect(effectiveGuardrails({ key })).toMatchObject({ input: true, output: false });
    expect(effectiveGuardrails({ plan: policy([{ check: 'pii', on: 'output', action: 'redact' }]) })).toMatchObject({ input: false, output: true });
  });
});

describe('scanSegments', () => {
  const effective = effectiveGuardrails({
    key: policy([{ check: 'pii', on: 'both', action: 'redact', kinds: ['email'] }]),
    team: policy([{ check: 'regex', on: 'input', action: 'block', patterns: [{ pattern: 'forbidden \\w{1,10}', name: 'topic' }] }]),
  })!;

  it('redacts each piece, reporting kinds and the level of the check, never the text', () => {
    const scan = scanSegments(['You are a helpful bot.', 'Mail jane@corp.example please', 'and bob@corp.example'], effective.compiled, 'input');
    expect(scan.redacted).toEqual(['You are a helpful bot.', 'Mail [REDACTED:email] please', 'and [REDACTED:email]']);
    expect(scan.verdicts.map((v) => guardrailRecord(effective, v))).toEqual([{ check: 'pii', source: 'key', index: 0, stage: 'input', action: 'redact', kinds: ['email'] }]);
    expect(JSON.stringify(scan.verdicts)).not.toContain('jane');
  });

  it('blocks with the first blocking check and redacts nothing then', () => {
    const scan = scanSegments(['mail jane@corp.example', 'a forbidden thing'], effective.compiled, 'input');
    expect(scan.redacted).toBeUndefined();
    const blocked = guardrailRecord(effective, scan.blocked!);
    expect(blocked).toEqual({ check: 'regex', source: 'team', index: 0, stage: 'input', action: 'block', kinds: ['topic'] });
    expect(blockMessage(blocked)).toBe("Blocked by the team's guardrail 0 (regex: topic) on input.");
  });

  it('runs only the checks of the stage', () => {
    expect(scanSegments(['a forbidden thing'], effective.compiled, 'output')).toEqual({ verdicts: [] });
  });

  it('redacts a span across pieces in each piece it touches', () => {
    // Offsets in "abc\ndefg\nhi": a span from 'b' to 'e' covers the end of one piece and the start of the next.
    expect(redactSegments(['abc', 'defg', 'hi'], [{ kind: 'x', start: 1, end: 6 }])).toEqual(['a[REDACTED:x]', '[REDACTED:x]fg', 'hi']);
    expect(redactSegments(['abc', 'defg', 'hi'], [{ kind: 'y', start: 9, end: 11 }, { kind: 'x', start: 0, end: 1 }])).toEqual(['[REDACTED:x]bc', 'defg', '[REDACTED:y]']);
    expect(redactSegments(['', 'ab'], [{ kind: 'x', start: 1, end: 2 }])).toEqual(['', '[REDACTED:x]b']);
  });

  it('stays linear on a million-digit prompt', () => {
    const meter = { steps: 0 };
    const text = '7'.repeat(1_000_000);
    const all = effectiveGuardrails({ key: policy([{ check: 'pii', on: 'input', action: 'block' }, { check: 'secrets', on: 'input', action: 'block' }]) })!;
    expect(scanSegments([text], all.compiled, 'input', meter)).toEqual({ verdicts: [] });
    expect(meter.steps).toBeLessThan(40 * text.length);
  });
});

describe('the policy column', () => {
  it('shows a policy in the admin API shape that parses back to the same checks', () => {
    const input = [
      { check: 'pii', on: 'both', action: 'redact', kinds: ['email', 'card'] },
      { check: 'secrets', on: 'input', action: 'block' },
      { check: 'regex', on: 'input', action: 'log', patterns: ['PRJ-\\d+', { pattern: 'x{2,3}', name: 'xs' }] },
      { check: 'webhook', on: 'input', action: 'block', url: 'https://dlp.example/v1' },
      { check: 'model', on: 'output', action: 'block', model: 'rosetta/llama-guard-3-8b', categories: ['violence'] },
    ];
    const shown = presentGuardrails(policy(input));
    expect(shown).toEqual([
      input[0],
      input[1],
      { ...input[2], ignore_case: false },
      { ...input[3], timeout_ms: 2000, fail: 'closed' },
      input[4],
    ]);
    expect(guardrailsFromColumn(JSON.parse(guardrailsColumn(policy(input))!))).toEqual(policy(input));
  });

  it('reads none as null, and a stored policy that no longer validates as a block of every input', () => {
    expect(guardrailsFromColumn(null)).toBeNull();
    expect(guardrailsFromColumn([])).toBeNull();
    expect(guardrailsColumn([])).toBeNull();
    const invalid = guardrailsFromColumn([{ check: 'telepathy', on: 'input', action: 'block' }])!;
    const scan = scanSegments(['hello'], effectiveGuardrails({ plan: invalid })!.compiled, 'input');
    expect(scan.blocked).toMatchObject({ check: 'regex', kinds: ['invalid_policy'] });
    expect(scanSegments([''], effectiveGuardrails({ plan: invalid })!.compiled, 'input').blocked).toBeUndefined();
  });
});
