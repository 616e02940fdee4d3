import { type CharSet } from './regex-ast';
import { DIGIT_RANGES, SPACE_RANGES, WORD_RANGES } from './regex-charset';

const CLASS_ESCAPES: Readonly<Record<string, CharSet>> = {
  d: { ranges: DIGIT_RANGES, negated: false },
  D: { ranges: DIGIT_RANGES, negated: true },
  w: { ranges: WORD_RANGES, negated: false },
  W: { ranges: WORD_RANGES, negated: true },
  s: { ranges: SPACE_RANGES, negated: false },
  S: { ranges: SPACE_RANGES, negated: true },
};

const CONTROL_ESCAPES: Readonly<Record<string, number>> = { n: 10, r: 13, t: 9, f: 12, v: 11 };

export type Escape = { set: CharSet; end: number; single: boolean } | { error: string };

/** Reads the escape whose letter is at `pos` (just after the backslash). */
export function readEscape(pattern: string, pos: number): Escape {
  const ch = pattern[pos];
  if (ch === undefined) return { error: 'trailing backslash' };
  const classSet = CLASS_ESCAPES[ch];
  if (classSet) return { set: classSet, end: pos + 1, single: false };
  const control = CONTROL_ESCAPES[ch];
  if (control !== undefined) return single(control, pos + 1);
  if (ch === '0' && !/[0-9]/.test(pattern[pos + 1] ?? '')) return single(0, pos + 1);
  if (/[1-9]/.test(ch) || ch === 'k') return { error: 'backreferences are not supported' };
  if (ch === 'x') return hexEscape(pattern, pos + 1, 2);
  if (ch === 'u') return pattern[pos + 1] === '{' ? { error: '\\u{...} is not supported; use \\uXXXX' } : hexEscape(pattern, pos + 1, 4);
  if (ch === 'p' || ch === 'P') return { error: 'unicode property escapes are not supported' };
  if (ch === 'c') return { error: 'control escapes (\\c) are not supported' };
  if (/[A-Za-z0-9]/.test(ch)) return { error: `unknown escape \\${ch}` };
  return single(ch.charCodeAt(0), pos + 1);
}

function single(code: number, end: number): Escape {
  return { set: { ranges: [[code, code]], negated: false }, end, single: true };
}

function hexEscape(pattern: string, start: number, digits: number): Escape {
  const hex = pattern.slice(start, start + digits);
  if (!new RegExp(`^[0-9A-Fa-f]{${digits}}$`).test(hex)) return { error: `\\${digits === 2 ? 'x' : 'u'} needs ${digits} hex digits` };
  return single(parseInt(hex, 16), start + digits);
}
