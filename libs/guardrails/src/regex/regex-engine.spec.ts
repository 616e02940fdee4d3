import { mergeFindings } from '../redact-spans';
import { compileRegexes } from './compile-regex';
import { parseRegex } from './regex-parser';
import { type RegexProgram } from './regex-program';
import { runRegexProgram } from './run-regex-program';
import { seeded as random } from '../guardrails-test-support';

function compile(pattern: string, ignoreCase = false): RegexProgram {
  const compiled = compileRegexes([{ pattern, kind: 'regex' }], ignoreCase);
  if ('error' in compiled) throw new Error(`${pattern}: ${compiled.error.message}`);
  return compiled.program;
}

function engineSpans(program: RegexProgram, text: string): Array<[number, number]> {
  const found = runRegexProgram(program, text, { atStart: true, atEnd: true, from: 0 }, { steps: 0 });
  return mergeFindings(found).map((f) => [f.start, f.end]);
}

/** The reference: every non-empty [s, e) JavaScript's own engine matches exactly, joined where they overlap. */
function referenceSpans(pattern: string, text: string, ignoreCase = false): Array<[number, number]> {
  const matches = [];
  for (let s = 0; s < text.length; s += 1) {
    for (let e = s + 1; e <= text.length; e += 1) {
      const exact = new RegExp(`(?:${pattern})(?<=^[\\s\\S]{${e}})`, ignoreCase ? 'iy' : 'y');
      exact.lastIndex = s;
      if (exact.test(text)) matches.push({ kind: 'regex', start: s, end: e });
    }
  }
  return mergeFindings(matches).map((f) => [f.start, f.end]);
}

const ATOMS = ['a', 'b', 'c', '.', '\\d', '\\w', '\\s', '[a-c]', '[^a]', '[b-d1]', '\\.', '-', 'A'];
const QUANTIFIERS = ['', '', '', '?', '*', '+', '{2}', '{1,3}', '{0,2}', '+?'];

function randomPattern(next: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const term = (depth: number): string => {
    const roll = next();
    if (depth < 2 && roll < 0.15) return `(${branch(depth + 1)}|${branch(depth + 1)})${pick(QUANTIFIERS)}`;
    if (roll < 0.2) return pick(['\\b', '^', '$', '\\B']);
    return pick(ATOMS) + pick(QUANTIFIERS);
  };
  const branch = (depth: number): string => Array.from({ length: 1 + Math.floor(next() * 3) }, () => term(depth)).join('');
  return branch(0);
}

function randomText(next: () => number): string {
  const alphabet = 'aabbc1 .-A_';
  return Array.from({ length: Math.floor(next() * 14) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}

describe('regex engine against JavaScript RegExp', () => {
  const corpus: Array<[string, string[]]> = [
    ['abc', ['abc', 'xabcabc', 'ab', 'aabcc']],
    ['a|ab|abc', ['abcd', 'xaab']],
    ['colou?r', ['color colour colouur']],
    ['\\bcat\\b', ['cat concat cats cat.']],
    ['^ab|cd$', ['abcd', 'cdab', 'ab cd']],
    ['\\d{3}-\\d{4}', ['555-1234 55-1234 5555-12345']],
    ['[A-Z][a-z]+', ['Hello World AND x']],
    ['(ab)+c', ['ababc abc ac']],
    ['[^\\s]+@\\w+', ['me@home you@ x@y']],
    ['x{2,3}', ['x xx xxx xxxx']],
    ['a.c', ['abc a\nc a c']],
    ['\\Bon\\B', ['on bond upon bonbon']],
    ['\\x41\\u0042[\\-+]', ['AB- AB+ AB*']],
  ];
  for (const [pattern, texts] of corpus) {
    it(`matches ${pattern} as RegExp does`, () => {
      const program = compile(pattern);
      for (const text of texts) expect([text, engineSpans(program, text)]).toEqual([text, referenceSpans(pattern, text)]);
    });
  }

  it('folds ASCII case with ignore_case as the i flag does', () => {
    const program = compile('secret[-_ ]?id|[^a-z]x', true);
    for (const text of ['SECRET-ID secret_Id SeCrEtId', 'aX 1X bx']) expect(engineSpans(program, text)).toEqual(referenceSpans('secret[-_ ]?id|[^a-z]x', text, true));
  });

  it('agrees on 400 random patterns over random texts', () => {
    const next = random(31);
    let compared = 0;
    while (compared < 400) {
      const pattern = randomPattern(next);
      const compiled = compileRegexes([{ pattern, kind: 'regex' }], false);
      if ('error' in compiled) continue;
      compared += 1;
      for (let t = 0; t < 4; t += 1) {
        const text = randomText(next);
        expect([pattern, text, engineSpans(compiled.program, text)]).toEqual([pattern, text, referenceSpans(pattern, text)]);
      }
    }
  });
});

describe('regex subset refusals', () => {
  const refusals: Array<[string, string]> = [
    ['(a)\\1', 'backreferences are not supported'],
    ['(?<n>a)\\k<n>', 'backreferences are not supported'],
    ['a(?=b)', 'lookahead is not supported'],
    ['a(?!b)', 'lookahead is not supported'],
    ['(?<=a)b', 'lookbehind is not supported'],
    ['(?<!a)b', 'lookbehind is not supported'],
    ['\\p{L}', 'unicode property escapes are not supported'],
    ['a**', 'nested quantifier'],
    ['*a', 'nothing to repeat'],
    ['\\b+', 'nothing to repeat'],
    ['(ab', 'unterminated group'],
    ['ab)', 'unmatched )'],
    ['[ab', 'unterminated character class'],
    ['[z-a]', 'character class range out of order'],
    ['[\\d-z]', 'a class escape cannot bound a range'],
    ['a{2,1}', 'repeat bounds out of order'],
    ['a{,3}', 'a literal { must be escaped as \\{'],
    ['\\q', 'unknown escape \\q'],
    ['a\\', 'trailing backslash'],
    ['\\xZ1', '\\x needs 2 hex digits'],
  ];
  for (const [pattern, message] of refusals) {
    it(`refuses ${pattern}`, () => {
      const parsed = parseRegex(pattern);
      expect('error' in parsed && parsed.error.message).toEqual(message);
    });
  }
});

describe('regex work is bounded by text × program size', () => {
  const cases: Array<[string, string]> = [
    ['(a|a)*b', 'a'.repeat(100_000)],
    ['(a*)*b', 'a'.repeat(100_000)],
    ['(a|aa)+$', `${'a'.repeat(50_000)}!`],
    ['(\\w+\\s?)+x', 'word '.repeat(20_000)],
    ['(.*a){20}', 'a'.repeat(20_000)],
  ];
  for (const [pattern, text] of cases) {
    it(`${pattern} over ${text.length} characters`, () => {
      const program = compile(pattern);
      const meter = { steps: 0 };
      runRegexProgram(program, text, { atStart: true, atEnd: true, from: 0 }, meter);
      // Each position visits an instruction at most once adding threads and once stepping them.
      expect(meter.steps).toBeLessThanOrEqual((text.length + 1) * program.ops.length * 2);
      expect(meter.steps).toBeGreaterThan(text.length);
    });
  }
});
