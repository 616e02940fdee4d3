import { type CharSet } from './regex-ast';

/** Character sets as JavaScript defines them (without the `u` flag: UTF-16 code units). */

export const DIGIT_RANGES: Array<[number, number]> = [[48, 57]];
export const WORD_RANGES: Array<[number, number]> = [[48, 57], [65, 90], [95, 95], [97, 122]];
/** ECMAScript WhiteSpace and LineTerminator. */
export const SPACE_RANGES: Array<[number, number]> = [
  [9, 13], [32, 32], [160, 160], [5760, 5760], [8192, 8202], [8232, 8233], [8239, 8239], [8287, 8287], [12288, 12288], [65279, 65279],
];
/** What `.` does not match: the line terminators. */
export const LINE_TERMINATOR_RANGES: Array<[number, number]> = [[10, 10], [13, 13], [8232, 8233]];

export function normalizeRanges(ranges: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [lo, hi] of sorted) {
    const last = merged[merged.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  return merged;
}

export function invertRanges(ranges: Array<[number, number]>): Array<[number, number]> {
  const inverted: Array<[number, number]> = [];
  let next = 0;
  for (const [lo, hi] of normalizeRanges(ranges)) {
    if (lo > next) inverted.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= 0xffff) inverted.push([next, 0xffff]);
  return inverted;
}

/**
 * Adds the other case of every ASCII letter in the set. Only ASCII folds: operators' patterns
 * for non-ASCII letters list both cases (documented in decision 0029).
 */
export function foldAsciiCase(ranges: Array<[number, number]>): Array<[number, number]> {
  const extra: Array<[number, number]> = [];
  for (const [lo, hi] of ranges) {
    const upperLo = Math.max(lo, 65);
    const upperHi = Math.min(hi, 90);
    if (upperLo <= upperHi) extra.push([upperLo + 32, upperHi + 32]);
    const lowerLo = Math.max(lo, 97);
    const lowerHi = Math.min(hi, 122);
    if (lowerLo <= lowerHi) extra.push([lowerLo - 32, lowerHi - 32]);
  }
  return normalizeRanges([...ranges, ...extra]);
}

/** A set as a matcher: a 128-entry table for ASCII, the ranges beyond. */
export interface CompiledCharSet {
  ascii: Uint8Array;
  ranges: Array<[number, number]>;
}

export function compileCharSet(set: CharSet, ignoreCase: boolean): CompiledCharSet {
  let ranges = normalizeRanges(set.ranges);
  if (ignoreCase) ranges = foldAsciiCase(ranges);
  if (set.negated) ranges = invertRanges(ranges);
  const ascii = new Uint8Array(128);
  for (const [lo, hi] of ranges) for (let c = lo; c <= Math.min(hi, 127); c += 1) ascii[c] = 1;
  return { ascii, ranges: ranges.filter(([, hi]) => hi >= 128) };
}

export function charSetHas(set: CompiledCharSet, code: number): boolean {
  if (code < 128) return set.ascii[code] === 1;
  for (const [lo, hi] of set.ranges) if (code >= lo && code <= hi) return true;
  return false;
}
