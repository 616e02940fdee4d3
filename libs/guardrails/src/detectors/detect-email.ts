import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isAlnum, isLower, isUpper } from './char-codes';

const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;
const WINDOW = MAX_LOCAL + 1 + MAX_DOMAIN + 2;

/**
 * Email addresses, found from each `@`: the run of local-part characters before it (1–64) and of
 * domain characters after it (labels of letters, digits and inner hyphens, a final dot dropped as
 * punctuation, an alphabetic top-level label of 2+). Runs stop at `@`, so each character is read
 * at most twice however many `@` there are.
 */
export const emailDetector: Detector = {
  kind: 'email',
  window: WINDOW,
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void {
    let at = text.indexOf('@', from);
    while (at >= 0) {
      meter.steps += 1;
      let start = at;
      while (start > at - MAX_LOCAL - 1 && isLocalCode(codeAt(text, start - 1))) start -= 1;
      let end = at + 1;
      while (end <= at + MAX_DOMAIN + 1 && isDomainCode(codeAt(text, end))) end += 1;
      meter.steps += end - start;
      const localOk = start < at && at - start <= MAX_LOCAL && !isLocalCode(codeAt(text, start - 1));
      const domainEnd = codeAt(text, end - 1) === 46 ? end - 1 : end;
      if (localOk && !isDomainCode(codeAt(text, end)) && domainValid(text, at + 1, domainEnd)) found.push({ kind: 'email', start, end: domainEnd });
      at = text.indexOf('@', at + 1);
    }
  },
  holdFrom(text: string): number {
    // Open findings reach the end of the text: an `@` right before the trailing run of domain
    // characters (its domain may still grow), or a trailing run of local-part characters whose
    // `@` has not arrived. Either way the finding starts at its local part, at most 64 back.
    let domain = text.length;
    while (domain > text.length - MAX_DOMAIN - 2 && isDomainCode(codeAt(text, domain - 1))) domain -= 1;
    const at = codeAt(text, domain - 1) === 64 ? domain - 1 : text.length;
    let start = at;
    while (start > at - MAX_LOCAL - 1 && isLocalCode(codeAt(text, start - 1))) start -= 1;
    return Math.max(0, start - 2);
  },
};

function isLocalCode(code: number): boolean {
  // . _ % + -
  return isAlnum(code) || code === 46 || code === 95 || code === 37 || code === 43 || code === 45;
}

function isDomainCode(code: number): boolean {
  return isAlnum(code) || code === 46 || code === 45;
}

function domainValid(text: string, start: number, end: number): boolean {
  if (end - start > MAX_DOMAIN) return false;
  let labelStart = start;
  let labels = 0;
  for (let i = start; i <= end; i += 1) {
    if (i < end && text.charCodeAt(i) !== 46) continue;
    if (i === labelStart || text.charCodeAt(labelStart) === 45 || text.charCodeAt(i - 1) === 45 || i - labelStart > 63) return false;
    labels += 1;
    if (i === end && !topLevelValid(text, labelStart, end)) return false;
    labelStart = i + 1;
  }
  return labels >= 2;
}

function topLevelValid(text: string, start: number, end: number): boolean {
  if (end - start < 2) return false;
  for (let i = start; i < end; i += 1) {
    const code = text.charCodeAt(i);
    if (!isUpper(code) && !isLower(code)) return false;
  }
  return true;
}
