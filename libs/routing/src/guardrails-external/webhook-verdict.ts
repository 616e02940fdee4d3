import { mergeFindings, type ExternalSpan, type ExternalVerdict } from '@rosetta/guardrails';
import { sanitiseKind } from './check-kind';

/** More spans than this is not a verdict (the answer is capped at 64 KB anyway). */
export const MAX_WEBHOOK_SPANS = 1000;
/** The kind of a span, or a block, that names none (or names one that is not a short identifier). */
export const WEBHOOK_KIND = 'webhook';

const BAD_VERDICT: ExternalVerdict = { action: 'unavailable', reason: 'bad_verdict' };

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A webhook's answer, `{"action": "allow" | "block" | "redact", "spans": [{"start", "end", "kind"}]}`,
 * read strictly against the text it was sent: every span whole-number offsets with
 * 0 ≤ start < end ≤ text.length (UTF-16 code units), at most 1,000 of them. Anything else — not
 * JSON, another action, a float or negative or out-of-range offset — is `unavailable: bad_verdict`,
 * and the check's `fail` choice decides. Fields it does not name are ignored, so a service may add
 * its own (a score, a reason). Spans come back sorted and joined where they overlap, widened so
 * none splits a surrogate pair; a block names the kinds of its spans, or `webhook`.
 */
export function parseWebhookVerdict(body: string, text: string): ExternalVerdict {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return BAD_VERDICT;
  }
  if (!isFields(value)) return BAD_VERDICT;
  const spans = value.spans === undefined ? [] : readSpans(value.spans, text);
  if (spans === null) return BAD_VERDICT;
  switch (value.action) {
    case 'allow':
      return { action: 'allow' };
    case 'block':
      return { action: 'block', kinds: blockKinds(spans) };
    case 'redact':
      return { action: 'redact', spans };
    default:
      return BAD_VERDICT;
  }
}

function readSpans(value: unknown, text: string): ExternalSpan[] | null {
  if (!Array.isArray(value) || value.length > MAX_WEBHOOK_SPANS) return null;
  const spans: ExternalSpan[] = [];
  for (const item of value as unknown[]) {
    if (!isFields(item)) return null;
    const { start, end } = item;
    if (!isOffset(start) || !isOffset(end) || start >= end || end > text.length) return null;
    spans.push({ start: wholeStart(text, start + 0), end: wholeEnd(text, end), kind: sanitiseKind(item.kind, WEBHOOK_KIND) });
  }
  return mergeFindings(spans);
}

/** A whole, non-negative offset (`-0`, which JSON allows, counts as 0). */
function isOffset(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** A span starting inside a surrogate pair starts before it: a redaction never leaves half a character. */
function wholeStart(text: string, start: number): number {
  return start > 0 && isLow(text.charCodeAt(start)) && isHigh(text.charCodeAt(start - 1)) ? start - 1 : start;
}

function wholeEnd(text: string, end: number): number {
  return end < text.length && isLow(text.charCodeAt(end)) && isHigh(text.charCodeAt(end - 1)) ? end + 1 : end;
}

function blockKinds(spans: readonly ExternalSpan[]): string[] {
  const kinds = [...new Set(spans.map((span) => span.kind))];
  return kinds.length > 0 ? kinds : [WEBHOOK_KIND];
}
