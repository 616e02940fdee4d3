import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isAlnum } from './char-codes';
import { trailingRunStart } from './hold-from-run';

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
    for (const trigger of TRIGGERS) {
      // The finding is the token, after its word and gap: the word may sit just before `from`.
      for (let at = text.indexOf(trigger, Math.max(0, from - trigger.length - MAX_GAP)); at >= 0; at = text.indexOf(trigger, at + 1)) {
        meter.steps += 1;
        if (isAlnum(codeAt(text, at - 1))) continue;
        const token = readToken(text, at + trigger.length, meter);
        if (token > 0) found.push({ kind: 'bearer_token', start: at + trigger.length + gapAfter(text, at + trigger.length), end: token });
      }
    }
  },
  holdFrom(text: string): number {
    // The finding is the token after the word and its gap: open only while that token (or the
    // gap before it) reaches the end of the text; the word itself is never redacted.
    const token = trailingRunStart(text, isTokenCode, MAX_TOKEN + 1);
    let gap = token;
    while (gap > token - MAX_GAP && codeAt(text, gap - 1) === 32) gap -= 1;
    const open = gap < token && TRIGGERS.some((trigger) => text.endsWith(trigger, gap));
    return Math.max(0, (open ? token : text.length) - 2);
  },
};

function gapAfter(text: string, i: number): number {
  let gap = 0;
  while (gap < MAX_GAP && codeAt(text, i + gap) === 32) gap += 1;
  return gap;
}

/** The end of a 16–2048 character token after 1–4 spaces from i, or -1. */
function readToken(text: string, i: number, meter: ScanMeter): number {
  const gap = gapAfter(text, i);
  if (gap === 0) return -1;
  const start = i + gap;
  let end = start;
  while (end - start <= MAX_TOKEN && isTokenCode(codeAt(text, end))) end += 1;
  meter.steps += end - i;
  return end - start >= MIN_TOKEN && end - start <= MAX_TOKEN ? end : -1;
}

/** RFC 6750 b64token: ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/", then "=" padding. */
function isTokenCode(code: number): boolean {
  return isAlnum(code) || code === 45 || code === 46 || code === 95 || code === 126 || code === 43 || code === 47 || code === 61;
}
