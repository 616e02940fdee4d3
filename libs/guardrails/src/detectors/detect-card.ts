import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isDigit, isWordCode } from './char-codes';
import { forEachDigitRun } from './digit-runs';
import { holdFromRun } from './hold-from-run';

const SEPARATORS = ' -';
const MIN_DIGITS = 13;
const MAX_DIGITS = 19;
/** 19 digits in groups of at least 3: at most 6 separators. */
const WINDOW = MAX_DIGITS + 6 + 2;

/**
 * Payment card numbers: a maximal run of 13–19 digits, optionally grouped by one kind of
 * separator (space or dash) into groups of at least 3, standing alone (no letter or digit
 * either side), not one repeated digit, passing the Luhn check. A run is read once and skipped
 * whole, so a run of a million digits costs a million steps, not a million squared.
 */
export const cardDetector: Detector = {
  kind: 'card',
  window: WINDOW,
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void {
    forEachDigitRun(text, from, { separators: SEPARATORS, maxDigits: MAX_DIGITS, meter }, (start, run) => {
      if (isCard(text, start, run.end, run.digits, run.groups, run.separators)) found.push({ kind: 'card', start, end: run.end });
    });
  },
  holdFrom: (text) => holdFromRun(text, isCardRunCode, WINDOW),
};

function isCardRunCode(code: number): boolean {
  return isDigit(code) || code === 32 || code === 45;
}

function isCard(text: string, start: number, end: number, digits: number, groups: number[], separators: string): boolean {
  if (digits < MIN_DIGITS || digits > MAX_DIGITS || isWordCode(codeAt(text, end))) return false;
  if (groups.some((length) => length < 3)) return false;
  if (separators.length > 0 && separators.split('').some((s) => s !== separators[0])) return false;
  if (text.charCodeAt(start) === 48) return false;
  return !oneRepeatedDigit(text, start, end) && luhnValid(text, start, end);
}

function oneRepeatedDigit(text: string, start: number, end: number): boolean {
  const first = text.charCodeAt(start);
  for (let i = start; i < end; i += 1) {
    const code = text.charCodeAt(i);
    if (isDigit(code) && code !== first) return false;
  }
  return true;
}

/** The Luhn checksum over the digits of text[start, end), separators skipped. */
export function luhnValid(text: string, start: number, end: number): boolean {
  let sum = 0;
  let double = false;
  for (let i = end - 1; i >= start; i -= 1) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) continue;
    let digit = code - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}
