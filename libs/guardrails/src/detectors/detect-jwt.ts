import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isAlnum } from './char-codes';
import { holdFromRun } from './hold-from-run';

const MAX_JWT = 4096;

/**
 * JSON Web Tokens: three base64url segments joined by dots, the first two beginning `eyJ` (the
 * encoding of `{"`), the signature at least 16 characters. Read once from each `eyJ` and skipped.
 */
export const jwtDetector: Detector = {
  kind: 'jwt',
  window: MAX_JWT + 2,
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void {
    let at = text.indexOf('eyJ', from);
    while (at >= 0) {
      meter.steps += 1;
      const end = isBase64UrlCode(codeAt(text, at - 1)) ? -1 : readJwt(text, at);
      meter.steps += Math.max(0, end - at);
      if (end > 0) found.push({ kind: 'jwt', start: at, end });
      at = text.indexOf('eyJ', end > 0 ? end : at + 1);
    }
  },
  // A token still open (three segments joined by dots, from `eyJ`) lies in the trailing run of those characters.
  holdFrom: (text) => holdFromRun(text, (code) => isBase64UrlCode(code) || code === 46, MAX_JWT + 2),
};

function readJwt(text: string, start: number): number {
  let i = start;
  const segments: number[] = [];
  for (let segment = 0; segment < 3; segment += 1) {
    const segmentStart = i;
    while (i - start <= MAX_JWT && isBase64UrlCode(codeAt(text, i))) i += 1;
    segments.push(i - segmentStart);
    if (segment < 2) {
      if (codeAt(text, i) !== 46) return -1;
      i += 1;
    }
  }
  const [header = 0, payload = 0, signature = 0] = segments;
  if (header < 4 || payload < 4 || signature < 16 || i - start > MAX_JWT || !text.startsWith('eyJ', start + header + 1)) return -1;
  return codeAt(text, i) === 46 ? -1 : i;
}

function isBase64UrlCode(code: number): boolean {
  return isAlnum(code) || code === 45 || code === 95;
}
