import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isDigit, isWordCode } from './char-codes';
import { forEachDigitRun } from './digit-runs';
import { holdFromRun } from './hold-from-run';

const SEPARATORS = ' -';
const WINDOW = 11 + 2;

/**
 * US Social Security numbers written as AAA-GG-SSSS (dashes or spaces, one kind), standing
 * alone. Bare nine-digit numbers are not taken: too many other things are nine digits. The
 * SSA's rules: area not 000, 666 or 900–999; group not 00; serial not 0000.
 */
export const ssnDetector: Detector = {
  kind: 'ssn',
  window: WINDOW,
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void {
    forEachDigitRun(text, from, { separators: SEPARATORS, maxDigits: 9, meter }, (start, run) => {
      const [area, group, serial] = run.groups;
      const shaped = run.digits === 9 && run.groups.length === 3 && area === 3 && group === 2 && serial === 4;
      if (shaped && run.separators[0] === run.separators[1] && !isWordCode(codeAt(text, run.end)) && ssnNumbersValid(text, start)) {
        found.push({ kind: 'ssn', start, end: run.end });
      }
    });
  },
  holdFrom: (text) => holdFromRun(text, (code) => isDigit(code) || code === 32 || code === 45, WINDOW),
};

function ssnNumbersValid(text: string, start: number): boolean {
  const area = Number(text.slice(start, start + 3));
  const group = text.slice(start + 4, start + 6);
  const serial = text.slice(start + 7, start + 11);
  return area !== 0 && area !== 666 && area < 900 && group !== '00' && serial !== '0000';
}
