import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isHex, isWordCode } from './char-codes';
import { holdFromRun } from './hold-from-run';

/** The longest textual IPv6 address: eight groups with an IPv4 tail, ffff:…:255.255.255.255. */
const MAX_LENGTH = 45;

/**
 * IPv6 addresses: a maximal run of hex digits, colons and dots standing alone, with at least two
 * colons, parsed by the RFC 4291 text rules (1–4 hex digits a group, one `::` at most, an
 * optional dotted IPv4 tail). Clock times (12:30:45) and MAC addresses fail the group count.
 * Each run is read once and skipped whole.
 */
export const ipv6Detector: Detector = {
  kind: 'ip',
  window: MAX_LENGTH + 2,
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void {
    // Every address has a colon: start from each, widen to the run around it, then skip the run.
    meter.steps += text.length - from;
    for (let colon = text.indexOf(':', from); colon >= 0; ) {
      let start = colon;
      while (start > colon - MAX_LENGTH - 1 && isRunCode(codeAt(text, start - 1))) start -= 1;
      let end = colon;
      let colons = 0;
      for (let c = codeAt(text, end); isRunCode(c); c = codeAt(text, ++end)) if (c === 58) colons += 1;
      meter.steps += end - start;
      // A sentence may end right after an address.
      const last = codeAt(text, end - 1) === 46 ? end - 1 : end;
      const alone = !isRunCode(codeAt(text, start - 1)) && !isWordCode(codeAt(text, start - 1)) && !isWordCode(codeAt(text, end));
      if (alone && colons >= 2 && last - start <= MAX_LENGTH && isIpv6(text.slice(start, last))) found.push({ kind: 'ip', start, end: last });
      colon = text.indexOf(':', end);
    }
  },
  holdFrom: (text) => holdFromRun(text, isRunCode, MAX_LENGTH + 2),
};

function isRunCode(code: number): boolean {
  return isHex(code) || code === 58 || code === 46;
}

export function isIpv6(candidate: string): boolean {
  const double = candidate.indexOf('::');
  if (double >= 0 && candidate.indexOf('::', double + 1) >= 0) return false;
  const groups =
    double >= 0
      ? [...splitGroups(candidate.slice(0, double)), ...splitGroups(candidate.slice(double + 2))]
      : candidate.split(':');
  if (groups.length === 0 || (double < 0 && groups.length < 3)) return false;
  let count = 0;
  for (let g = 0; g < groups.length; g += 1) {
    const group = groups[g] as string;
    if (group.includes('.')) {
      if (g !== groups.length - 1 || !isDottedQuad(group)) return false;
      count += 2;
    } else {
      if (group.length < 1 || group.length > 4) return false;
      count += 1;
    }
  }
  return double >= 0 ? count <= 7 : count === 8;
}

function splitGroups(part: string): string[] {
  return part === '' ? [] : part.split(':');
}

function isDottedQuad(part: string): boolean {
  const octets = part.split('.');
  return octets.length === 4 && octets.every((o) => /^\d{1,3}$/.test(o) && (o.length === 1 || o[0] !== '0') && Number(o) <= 255);
}
