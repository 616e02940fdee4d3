import { type Detector, type Finding, type ScanMeter } from '../finding';
import { codeAt, isWordCode, nextMatch } from './char-codes';
import { holdFromRun } from './hold-from-run';
import { SECRET_TOKEN_FORMATS, SECRET_TOKEN_PREFIXES, SECRET_TOKEN_WINDOW } from './secret-token-formats';

/** Every prefix, longest first where they nest: a literal alternation, linear. */
const PREFIX = new RegExp([...SECRET_TOKEN_PREFIXES].sort((x, y) => y.length - x.length).map(escape).join('|'), 'g');

function escape(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}

/**
 * Prefixed provider credentials (AWS key ids, OpenAI, Anthropic, Google, GitHub, Slack, Stripe):
 * at each prefix that starts a word (found by one literal alternation), the formats whose prefix
 * begins there; the body is the
 * maximal run of its alphabet, so each token is read once and skipped.
 */
export const secretTokensDetector: Detector = {
  kind: 'secret_token',
  window: SECRET_TOKEN_WINDOW,
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void {
    meter.steps += text.length - from;
    for (let i = nextMatch(PREFIX, text, from); i >= 0; ) {
      meter.steps += 1;
      const token = isWordCode(codeAt(text, i - 1)) ? NO_TOKEN : matchToken(text, i, meter);
      if (token.end > 0) found.push({ kind: token.kind, start: i, end: token.end });
      i = nextMatch(PREFIX, text, token.end > 0 ? token.end : i + 1);
    }
  },
  // Every prefix and body is letters, digits, `-` and `_`: a token still open (or a prefix cut off
  // at the end) lies in the trailing run of those, as does any word an email check holds anyway.
  holdFrom: (text) => holdFromRun(text, isTokenRunCode, SECRET_TOKEN_WINDOW),
};

const NO_TOKEN = { kind: '', end: -1 };

function isTokenRunCode(code: number): boolean {
  return isWordCode(code) || code === 45;
}

function matchToken(text: string, start: number, meter: ScanMeter): { kind: string; end: number } {
  for (const format of SECRET_TOKEN_FORMATS) {
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
  return NO_TOKEN;
}
