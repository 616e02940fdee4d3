import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isAlnum } from './char-codes';
import { holdFromTriggers } from './hold-from-triggers';

const MIN_TOKEN = 16;
const MAX_TOKEN = 2048;
const MAX_GAP = 4;
/** The spellings taken: streams hold back from each, so no other spelling may be matched. */
const TRIGGERS = ['Bearer', 'bearer', 'BEARER'];
const WINDOW = 6 + MAX_GAP + MAX_TOKEN + 2;

/**
 * Bearer tokens as written in an `Authorization: Bearer <token>` header (or a curl line): the
 * word `Bearer` (or `bearer`, `BEARER`) standing alone, 1–4 spaces, then 16–2048 characters of the RFC 6750
 * token alphabet. The finding is the token, so the placeholder keeps the header readable.
 */
export const bearerTokenDetector: Detector = {
  kind: 'bearer_token',
  window: WINDOW,
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void {
    for (let i = from; i < text.length; i += 1) {
      meter.steps += 1;
      const code = text.charCodeAt(i);
      if ((code !== 66 && code !== 98) || !isWord(text, i)) continue;
      let start = i + 6;
      while (start - i - 6 < MAX_GAP && codeAt(text, start) === 32) start += 1;
      if (start === i + 6) continue;
      let end = start;
      while (end - start <= MAX_TOKEN && isTokenCode(codeAt(text, end))) end += 1;
      meter.steps += end - i;
      const length = end - start;
      if (length >= MIN_TOKEN && length <= MAX_TOKEN) {
        found.push({ kind: 'bearer_token', start, end });
        i = end - 1;
      }
    }
  },
  holdFrom: (text) => holdFromTriggers(text, TRIGGERS, WINDOW),
};

function isWord(text: string, i: number): boolean {
  return TRIGGERS.some((t) => text.startsWith(t, i)) && !isAlnum(codeAt(text, i - 1));
}

/** RFC 6750 b64token: ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/", then "=" padding. */
function isTokenCode(code: number): boolean {
  return isAlnum(code) || code === 45 || code === 46 || code === 95 || code === 126 || code === 43 || code === 47 || code === 61;
}
