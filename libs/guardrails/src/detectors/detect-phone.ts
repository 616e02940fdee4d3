import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isDigit, isWordCode, nextMatch } from './char-codes';
import { holdFromRun } from './hold-from-run';

const PHONE_START = /[0-9+(]/g;

const MAX_DIGITS = 15;
/** 15 digits, a plus, a pair of parentheses and a separator between each group. */
const WINDOW = 32;

interface PhoneRun {
  end: number;
  plus: boolean;
  digits: string;
  groups: number[];
  /** Index of the group inside parentheses, or -1. */
  parenGroup: number;
}

/**
 * Telephone numbers, conservatively, because digits are everywhere in prompts:
 * - international: `+` then 8–15 digits (E.164), any grouping;
 * - North American: 3-3-4 (optionally after a 1), with separators or (area) parentheses, the
 *   area code and exchange starting 2–9;
 * - national with a trunk 0 (most of Europe): 10–11 digits in 2+ groups of 2+ digits.
 * A bare run of digits without `+` is never a phone number. Each run is read once.
 */
export const phoneDetector: Detector = {
  kind: 'phone',
  window: WINDOW,
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void {
    meter.steps += text.length - from;
    for (let i = nextMatch(PHONE_START, text, from); i >= 0; i = nextMatch(PHONE_START, text, i)) {
      meter.steps += 1;
      if (!startsPhone(text, i)) {
        i += 1;
        while (isDigit(codeAt(text, i))) i += 1;
        continue;
      }
      const run = readPhoneRun(text, i);
      meter.steps += run.end - i;
      if (endsCleanly(text, run.end) && isPhone(run)) found.push({ kind: 'phone', start: i, end: run.end });
      i = Math.max(i + 1, run.end);
    }
  },
  holdFrom: (text) => holdFromRun(text, isPhoneRunCode, WINDOW),
};

function isPhoneRunCode(code: number): boolean {
  return isDigit(code) || isSeparator(code) || code === 43 || code === 40 || code === 41;
}

function startsPhone(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  if (!(isDigit(code) || code === 43 || code === 40)) return false;
  const before = codeAt(text, i - 1);
  if (before < 0) return true;
  if (isWordCode(before) || before === 43 || before === 40 || before === 41) return false;
  return !(isSeparator(before) && (isDigit(codeAt(text, i - 2)) || codeAt(text, i - 2) === 41));
}

function isSeparator(code: number): boolean {
  return code === 32 || code === 45 || code === 46;
}

function readPhoneRun(text: string, start: number): PhoneRun {
  const run: PhoneRun = { end: start, plus: text.charCodeAt(start) === 43, digits: '', groups: [], parenGroup: -1 };
  let i = run.plus ? start + 1 : start;
  for (;;) {
    const paren = codeAt(text, i) === 40 && run.parenGroup < 0 && isDigit(codeAt(text, i + 1));
    if (paren) i += 1;
    const groupStart = i;
    while (isDigit(codeAt(text, i))) i += 1;
    if (i === groupStart || (paren && codeAt(text, i) !== 41)) return run;
    if (run.digits.length <= MAX_DIGITS) run.digits += text.slice(groupStart, Math.min(i, groupStart + MAX_DIGITS + 1));
    run.groups.push(i - groupStart);
    if (paren) {
      run.parenGroup = run.groups.length - 1;
      i += 1;
    }
    run.end = i;
    const next = codeAt(text, i);
    const joined = isSeparator(next) && (isDigit(codeAt(text, i + 1)) || codeAt(text, i + 1) === 40);
    if (joined) i += 1;
    else if (!(paren && isDigit(next))) return run;
  }
}

function endsCleanly(text: string, end: number): boolean {
  const after = codeAt(text, end);
  if (isWordCode(after) || after === 40 || after === 41 || after === 43) return false;
  return !(isSeparator(after) && (isDigit(codeAt(text, end + 1)) || codeAt(text, end + 1) === 40));
}

function isPhone(run: PhoneRun): boolean {
  const count = run.digits.length;
  if (run.plus) return count >= 8 && count <= MAX_DIGITS && run.digits[0] !== '0' && run.parenGroup !== 0;
  if (run.groups.length < 2) return false;
  return isNorthAmerican(run) || isTrunkNational(run);
}

function isNorthAmerican(run: PhoneRun): boolean {
  const shape = run.groups.join('-');
  const offset = shape === '1-3-3-4' && run.digits[0] === '1' ? 1 : shape === '3-3-4' ? 0 : -1;
  if (offset < 0 || (run.parenGroup >= 0 && run.parenGroup !== offset)) return false;
  const area = run.digits[offset] as string;
  const exchange = run.digits[offset + 3] as string;
  return area >= '2' && exchange >= '2';
}

function isTrunkNational(run: PhoneRun): boolean {
  const count = run.digits.length;
  return run.digits[0] === '0' && count >= 10 && count <= 11 && run.groups.every((g) => g >= 2);
}
