import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isWordCode, readDigitRun } from './char-codes';
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
    let i = from;
    while (i < text.length) {
      meter.steps += 1;
      const code = text.charCodeAt(i);
      if (code < 48 || code > 57 || !startsDigitRun(text, i, SEPARATORS)) {
        i += 1;
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
