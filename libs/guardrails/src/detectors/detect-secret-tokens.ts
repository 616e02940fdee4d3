import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isWordCode } from './char-codes';
import { holdFromTriggers } from './hold-from-triggers';
import { SECRET_TOKEN_FORMATS, SECRET_TOKEN_PREFIXES, SECRET_TOKEN_WINDOW, type SecretTokenFormat } from './secret-token-formats';

/** Formats by the first character of their prefixes, so most positions cost one table lookup. */
const BY_FIRST_CODE: Array<SecretTokenFormat[] | undefined> = new Array(128);
for (const format of SECRET_TOKEN_FORMATS) {
  for (const code of new Set(format.prefixes.map((p) => p.charCodeAt(0)))) {
    BY_FIRST_CODE[code] = [...(BY_FIRST_CODE[code] ?? []), format];
  }
}

/**
 * Prefixed provider credentials (AWS key ids, OpenAI, Anthropic, Google, GitHub, Slack, Stripe):
 * at each position that starts a word, the formats whose prefix begins there; the body is the
 * maximal run of its alphabet, so each token is read once and skipped.
 */
export const secretTokensDetector: Detector = {
  kind: 'secret_token',
  window: SECRET_TOKEN_WINDOW,
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void {
    let i = from;
    while (i < text.length) {
      meter.steps += 1;
      const code = text.charCodeAt(i);
      const formats = code < 128 ? BY_FIRST_CODE[code] : undefined;
      if (formats === undefined || isWordCode(codeAt(text, i - 1))) {
        i += 1;
        continue;
      }
      const end = matchToken(text, i, formats, meter);
      if (end.end > 0) found.push({ kind: end.kind, start: i, end: end.end });
      i = end.end > 0 ? end.end : i + 1;
    }
  },
  holdFrom: (text) => holdFromTriggers(text, SECRET_TOKEN_PREFIXES, SECRET_TOKEN_WINDOW),
};

function matchToken(text: string, start: number, formats: SecretTokenFormat[], meter: ScanMeter): { kind: string; end: number } {
  for (const format of formats) {
    const prefix = format.prefixes.find((p) => text.startsWith(p, start));
    if (prefix === undefined) continue;
    const bodyStart = start + prefix.length;
    let end = bodyStart;
    while (end - bodyStart <= format.maxBody && format.body(codeAt(text, end))) end += 1;
    meter.steps += end - start;
    const length = end - bodyStart;
    if (length >= format.minBody && length <= format.maxBody && !isWordCode(codeAt(text, end))) return { kind: format.kind, end };
    // A prefix that nests in a later one (sk-ant- in sk-) falls through to it.
  }
  return { kind: '', end: -1 };
}
