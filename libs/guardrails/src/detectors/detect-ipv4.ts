import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isDigit, isWordCode } from './char-codes';
import { forEachDigitRun } from './digit-runs';
import { holdFromRun } from './hold-from-run';

const WINDOW = 15 + 2;

/**
 * Dotted-quad IPv4 addresses: exactly four groups of 0–255 without leading zeros, standing alone
 * (a fifth group, as in a version string 1.2.3.4.5, makes it not an address).
 */
export const ipv4Detector: Detector = {
  kind: 'ip',
  window: WINDOW,
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void {
    forEachDigitRun(text, from, { separators: '.', maxDigits: 12, meter }, (start, run) => {
      // After a colon it is the IPv4 tail of an IPv6 address, which that detector takes whole.
      if (codeAt(text, start - 1) === 58 || run.groups.length !== 4 || run.digits > 12 || isWordCode(codeAt(text, run.end))) return;
      if (octetsValid(text, start, run.end)) found.push({ kind: 'ip', start, end: run.end });
    });
  },
  holdFrom: (text) => holdFromRun(text, (code) => isDigit(code) || code === 46, WINDOW),
};

function octetsValid(text: string, start: number, end: number): boolean {
  return text
    .slice(start, end)
    .split('.')
    .every((octet) => octet.length <= 3 && (octet.length === 1 || octet[0] !== '0') && Number(octet) <= 255);
}
