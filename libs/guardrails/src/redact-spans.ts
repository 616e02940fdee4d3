import { type Finding } from './finding';

/** What replaces a redacted span: typed, so the model and the reader know what was there. */
export function redactionPlaceholder(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/**
 * Joins overlapping findings (spans that only touch stay apart). A joined span takes the kind of
 * its earliest-starting finding; on a tie the longer, then the earlier in the list (policy order).
 */
export function mergeFindings(findings: readonly Finding[]): Finding[] {
  const sorted = findings
    .map((finding, order) => ({ finding, order }))
    .sort((x, y) => x.finding.start - y.finding.start || y.finding.end - x.finding.end || x.order - y.order);
  const merged: Finding[] = [];
  for (const { finding } of sorted) {
    const last = merged[merged.length - 1];
    if (last && finding.start < last.end) last.end = Math.max(last.end, finding.end);
    else merged.push({ ...finding });
  }
  return merged;
}

/** The text with each merged span replaced by its placeholder; spans must be merged and sorted. */
export function applyRedactions(text: string, spans: readonly Finding[], offset = 0): string {
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start - offset) + redactionPlaceholder(span.kind);
    at = span.end - offset;
  }
  return out + text.slice(at);
}

export function redactText(text: string, findings: readonly Finding[]): string {
  return applyRedactions(text, mergeFindings(findings));
}
