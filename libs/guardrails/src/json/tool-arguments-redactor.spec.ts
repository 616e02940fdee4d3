import { scanGuardrails } from '../guardrail-engine';
import { chunked, compiledPolicy as guardrails, seeded as random } from '../guardrails-test-support';
import { JsonTextLexer } from './json-text-lexer';
import { jsonTextPieces } from './json-text-pieces';
import { ToolArgumentsRedactor } from './tool-arguments-redactor';

const REDACT = guardrails([
  { check: 'pii', on: 'output', action: 'redact' },
  { check: 'regex', on: 'output', action: 'redact', patterns: [{ pattern: 'PRJ-\\d{2,4}', name: 'ticket' }] },
]);
const BLOCK_SECRETS = guardrails([{ check: 'secrets', on: 'output', action: 'block' }, { check: 'pii', on: 'output', action: 'redact', kinds: ['email'] }]);

function streamed(policy: ReturnType<typeof guardrails>, chunks: readonly string[]): { text: string; redactor: ToolArgumentsRedactor; blocked?: unknown } {
  const redactor = new ToolArgumentsRedactor(policy);
  let text = '';
  for (const chunk of chunks) {
    const step = redactor.push(chunk);
    if (step.blocked) return { text, redactor, blocked: step.blocked };
    text += step.text;
  }
  const last = redactor.flush();
  return { text: text + last.text, redactor, ...(last.blocked ? { blocked: last.blocked } : {}) };
}

/** Strings (keys too) and scalars of a parsed value, each redacted on its own: what the redactor must send. */
function redactedValue(value: unknown, policy: ReturnType<typeof guardrails>): unknown {
  const one = (text: string): string => scanGuardrails(text, policy, 'output').redacted ?? text;
  if (typeof value === 'string') return one(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
    const raw = JSON.stringify(value);
    const text = one(raw);
    return text === raw ? value : text;
  }
  if (Array.isArray(value)) return value.map((v) => redactedValue(v, policy));
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [one(k), redactedValue(v, policy)]));
}

const WORDS = ['plain', 'mail jane.doe@corp.example now', 'card 4111 1111 1111 1111', 'ticket PRJ-123', 'a "quoted" \\ path\\to', 'line\nbreak\ttab', 'caf\u00e9 \u2603 \ud83d\ude00', 'x@y', '10.0.0.1', '+1 415 555 2671'];

function randomValue(next: () => number, depth = 0): unknown {
  const r = next();
  const word = WORDS[Math.floor(next() * WORDS.length)]!;
  if (depth > 2 || r < 0.35) return word;
  if (r < 0.45) return [4111111111111111, 42, -1.5e3, true, null][Math.floor(next() * 5)];
  if (r < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  return Object.fromEntries(Array.from({ length: 1 + Math.floor(next() * 3) }, (_, i) => [i === 0 ? word : `k${i}`, randomValue(next, depth + 1)]));
}

/** JSON with the escapes a model may write: `\/`, `\u00e9`, `\u0040` for `@`. */
function escapedJson(value: unknown, next: () => number): string {
  return JSON.stringify(value).replace(/[/é@]/g, (c) => (next() < 0.5 ? c : c === '/' ? '\\/' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

describe('JsonTextLexer', () => {
  it('gives back the text byte for byte, and each string decoded as JSON.parse does, for any chunking', () => {
    const next = random(3);
    for (let round = 0; round < 100; round++) {
      const value = randomValue(next);
      const json = escapedJson(value, next);
      let back = '';
      const strings: string[] = [];
      let open = '';
      const lexer = new JsonTextLexer({
        structure: (raw) => (back += raw),
        open: () => ((back += '"'), (open = '')),
        chars: (decoded, raw) => ((back += raw), (open += decoded)),
        close: () => ((back += '"'), strings.push(open)),
        scalar: (raw) => (back += raw),
      });
      for (const chunk of chunked(json, next, 1 + Math.floor(next() * 12))) lexer.push(chunk);
      lexer.end();
      expect(back).toBe(json);
      const parsedStrings: string[] = [];
      const collect = (v: unknown): void => {
        if (typeof v === 'string') parsedStrings.push(v);
        else if (Array.isArray(v)) v.forEach(collect);
        else if (v && typeof v === 'object') {
          for (const [k, x] of Object.entries(v)) {
            parsedStrings.push(k);
            collect(x);
          }
        }
      };
      collect(JSON.parse(json));
      expect(strings).toEqual(parsedStrings);
    }
  });
});

describe('jsonTextPieces', () => {
  it('reads strings decoded and scalars as written, and keeps the bytes of what is not replaced', () => {
    const json = '{"to": "a\\u0040b.co", "n": 4111111111111111, "e": "", "ok": true, "p": "a\\/b"}';
    const pieces = jsonTextPieces(json);
    expect(pieces.texts).toEqual(['to', 'a@b.co', 'n', '4111111111111111', 'e', 'ok', 'true', 'p', 'a/b']);
    expect(pieces.rebuild(pieces.texts)).toBe(json);
    const replaced = pieces.texts.map((t) => (t === 'a@b.co' ? 'say "[REDACTED:email]"\n' : t === '4111111111111111' ? '[REDACTED:card]' : t));
    const rebuilt = pieces.rebuild(replaced);
    expect(JSON.parse(rebuilt)).toEqual({ to: 'say "[REDACTED:email]"\n', n: '[REDACTED:card]', e: '', ok: true, p: 'a/b' });
    expect(rebuilt).toContain('"p": "a\\/b"');
  });

  it('leaves arguments cut short as they were, but for what it replaces', () => {
    const pieces = jsonTextPieces('{"to": "bob@corp.ex');
    expect(pieces.texts).toEqual(['to', 'bob@corp.ex']);
    expect(pieces.rebuild(['to', '[REDACTED:email]'])).toBe('{"to": "[REDACTED:email]');
  });
});

describe('ToolArgumentsRedactor', () => {
  it('redacts inside each string and scalar, always sending valid JSON, the same for any chunking', () => {
    const next = random(5);
    for (let round = 0; round < 150; round++) {
      const value = { args: randomValue(next) };
      const json = escapedJson(value, next);
      const expected = redactedValue(value, REDACT);
      const out = streamed(REDACT, chunked(json, next, 1 + Math.floor(next() * 30))).text;
      expect(JSON.parse(out)).toEqual(expected);
    }
  });

  it('sends the arguments byte for byte when nothing is found, escapes included', () => {
    const json = '{"path": "C:\\\\tmp\\/caf\\u00e9", "n": [1, 2.5e3, null], "q": "say \\"hi\\""}';
    const next = random(9);
    for (let round = 0; round < 20; round++) expect(streamed(REDACT, chunked(json, next, 7)).text).toBe(json);
  });

  it('finds what escapes hide, and writes a redacted string escaped: a redacted number becomes a string', () => {
    const json = '{"to":"jane\\u0040corp.example","card":4111111111111111,"note":"tab\\there \\"PRJ-42\\" end"}';
    const { text, redactor } = streamed(REDACT, [json]);
    expect(text).toBe('{"to":"[REDACTED:email]","card":"[REDACTED:card]","note":"tab\\there \\"[REDACTED:ticket]\\" end"}');
    expect(redactor.verdicts()).toEqual([
      { check: 'pii', index: 0, stage: 'output', action: 'redact', kinds: ['card', 'email'] },
      { check: 'regex', index: 1, stage: 'output', action: 'redact', kinds: ['ticket'] },
    ]);
  });

  it('holds back only within a string: text between strings goes out as it comes', () => {
    const redactor = new ToolArgumentsRedactor(REDACT);
    expect(redactor.push('{"a": "x", "b": [1')).toEqual({ text: '{"a": "x", "b": [' });
    // The number is sent once it is known to end; the open string is held for the checks.
    expect(redactor.push(', 2], "c": "mail bo')).toEqual({ text: '1, 2], "c": "' });
    expect(redactor.push('b@corp.example"}')).toEqual({ text: 'mail [REDACTED:email]"}' });
    expect(redactor.flush()).toEqual({ text: '' });
  });

  it('stops at the chunk that completes a blocked secret, having sent none of it', () => {
    const key = 'AKIAIOSFODNN7EXAMPLE';
    const json = JSON.stringify({ command: `aws configure set aws_access_key_id ${key}`, then: 'more text after it' });
    const next = random(13);
    for (let round = 0; round < 30; round++) {
      const { text, blocked, redactor } = streamed(BLOCK_SECRETS, chunked(json, next, 9));
      expect(blocked).toEqual({ check: 'secrets', index: 0 });
      expect(json.startsWith(text) && !text.includes('AKIA')).toBe(true);
      expect(redactor.verdicts()).toEqual([{ check: 'secrets', index: 0, stage: 'output', action: 'block', kinds: ['aws_access_key'] }]);
    }
    // A blocked number too (the secret detectors do not match digits; a regex here).
    const digits = guardrails([{ check: 'regex', on: 'output', action: 'block', patterns: [{ pattern: '\\d{12}', name: 'account' }] }]);
    expect(streamed(digits, ['{"id": 123456789012, "x": 1}']).blocked).toEqual({ check: 'regex', index: 0 });
  });

  it('sends a cut-short string unclosed at the end, redacted', () => {
    expect(streamed(REDACT, ['{"to": "write to bob@cor', 'p.example'])).toMatchObject({ text: '{"to": "write to [REDACTED:email]' });
  });

  it('takes hostile arguments in stride: a million-digit number, and escapes held back behind a trigger', () => {
    const policy = guardrails([{ check: 'secrets', on: 'output', action: 'redact' }, { check: 'pii', on: 'output', action: 'log' }]);
    const digits = '9'.repeat(1_000_000);
    expect(streamed(policy, [`{"n": ${digits.slice(0, 500_000)}`, `${digits.slice(500_000)}}`]).text).toBe(`{"n": ${digits}}`);
    // A PEM opening holds the string back up to 8 KB: every escape of it is one run, sent in order.
    const escapes = '\\n'.repeat(50_000);
    const json = `{"key": "-----BEGIN ${escapes}"}`;
    const out = streamed(policy, json.match(/[\s\S]{1,7}/g) ?? []).text;
    expect(out).toBe(json);
  });
});
