import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isDigit, isWordCode, nextMatch, readDigitRun } from './char-codes';

const DIGIT = /[0-9]/g;
import { startsDigitRun } from './detect-card';

/**
 * Dotted-quad IPv4 addresses: exactly four groups of 0–255 without leading zeros, standing alone
 * (a fifth group, as in a version string 1.2.3.4.5, makes it not an address).
 */
export const ipv4Detector: Detector = {
  kind: 'ip',
  window: 15 + 2,
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void {
    meter.steps += text.length - from;
    for (let i = nextMatch(DIGIT, text, from); i >= 0; i = nextMatch(DIGIT, text, i)) {
      meter.steps += 1;
      if (!startsDigitRun(text, i, '.') || codeAt(text, i - 1) === 58) {
        while (isDigit(codeAt(text, i))) i += 1;
        continue;
      }
      const run = readDigitRun(text, i, '.', 12);
      meter.steps += run.end - i;
      if (run.groups.length === 4 && run.digits <= 12 && !isWordCode(codeAt(text, run.end)) && octetsValid(text, i, run.end)) {
        found.push({ kind: 'ip', start: i, end: run.end });
      }
      i = run.end;
    }
  },
};

function octetsValid(text: string, start: number, end: number): boolean {
  return text
    .slice(start, end)
    .split('.')
    .every((octet) => octet.length <= 3 && (octet.length === 1 || octet[0] !== '0') && Number(octet) <= 255);
}
