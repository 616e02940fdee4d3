import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isWordCode, readDigitRun } from './char-codes';
import { startsDigitRun } from './detect-card';

/**
 * Dotted-quad IPv4 addresses: exactly four groups of 0–255 without leading zeros, standing alone
 * (a fifth group, as in a version string 1.2.3.4.5, makes it not an address).
 */
export const ipv4Detector: Detector = {
  kind: 'ip',
  window: 15 + 2,
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void {
    let i = from;
    while (i < text.length) {
      meter.steps += 1;
      // After a colon it is the IPv4 tail of an IPv6 address, which that detector takes whole.
      const code = text.charCodeAt(i);
      if (code < 48 || code > 57 || !startsDigitRun(text, i, '.') || codeAt(text, i - 1) === 58) {
        i += 1;
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
