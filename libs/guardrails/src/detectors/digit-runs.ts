import { type ScanMeter } from '../finding';
import { codeAt, type DigitRun, isDigit, isWordCode, nextMatch, readDigitRun } from './char-codes';

const DIGIT = /[0-9]/g;

/** A digit that begins a run: not after a word character, nor after a separator that follows a digit. */
export function startsDigitRun(text: string, i: number, separators: string): boolean {
  if (!isDigit(codeAt(text, i))) return false;
  const before = codeAt(text, i - 1);
  if (before < 0) return true;
  if (isWordCode(before)) return false;
  return !(separators.includes(text[i - 1] as string) && isDigit(codeAt(text, i - 2)));
}

/**
 * Calls `visit` with each maximal run of digits joined by single `separators` that starts at or
 * after `from` and stands alone on its left (see startsDigitRun), then skips the run: each digit
 * is read once however long the run, and native search jumps the text between runs.
 */
export function forEachDigitRun(
  text: string,
  from: number,
  run: { separators: string; maxDigits: number; meter: ScanMeter },
  visit: (start: number, digits: DigitRun) => void,
): void {
  run.meter.steps += text.length - from;
  for (let i = nextMatch(DIGIT, text, from); i >= 0; i = nextMatch(DIGIT, text, i)) {
    run.meter.steps += 1;
    if (!startsDigitRun(text, i, run.separators)) {
      while (isDigit(codeAt(text, i))) i += 1;
      continue;
    }
    const digits = readDigitRun(text, i, run.separators, run.maxDigits);
    run.meter.steps += digits.end - i;
    visit(i, digits);
    i = digits.end;
  }
}
