import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isDigit, isWordCode, nextMatch, readDigitRun } from './char-codes';

const DIGIT = /[0-9]/g;
import { startsDigitRun } from './detect-card';

const SEPARATORS = ' -';

/**
 * US Social Security numbers written as AAA-GG-SSSS (dashes or spaces, one kind), standing
 * alone. Bare nine-digit numbers are not taken: too many other things are nine digits. The
 * SSA's rules: area not 000, 666 or 900–999; group not 00; serial not 0000.
 */
export const ssnDetector: Detector = {
  kind: 'ssn',
  window: 11 + 2,
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void {
    meter.steps += text.length - from;
    for (let i = nextMatch(DIGIT, text, from); i >= 0; i = nextMatch(DIGIT, text, i)) {
      meter.steps += 1;
      if (!startsDigitRun(text, i, SEPARATORS)) {
        while (isDigit(codeAt(text, i))) i += 1;
        continue;
      }
      const run = readDigitRun(text, i, SEPARATORS, 9);
      meter.steps += run.end - i;
      const [area, group, serial] = run.groups;
      const shaped = run.digits === 9 && run.groups.length === 3 && area === 3 && group === 2 && serial === 4;
      if (shaped && run.separators[0] === run.separators[1] && !isWordCode(codeAt(text, run.end)) && ssnNumbersValid(text, i)) {
        found.push({ kind: 'ssn', start: i, end: run.end });
      }
      i = run.end;
    }
  },
};

function ssnNumbersValid(text: string, start: number): boolean {
  const area = Number(text.slice(start, start + 3));
  const group = text.slice(start + 4, start + 6);
  const serial = text.slice(start + 7, start + 11);
  return area !== 0 && area !== 666 && area < 900 && group !== '00' && serial !== '0000';
}
