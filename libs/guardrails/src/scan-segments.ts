import { checksAt, findForCheck, type CompiledGuardrails } from './compile-guardrails';
import { type Finding, type ScanMeter } from './finding';
import { type GuardrailStage } from './guardrail-check';
import { verdictOf, type GuardrailVerdict } from './guardrail-engine';
import { applyRedactions, mergeFindings } from './redact-spans';

/**
 * The pieces of text a request or an answer is made of (a system prompt, each message's text, a
 * tool result) scanned as one text, joined by a newline, so a check sees what the model sees and
 * one pass runs every check. Redactions come back per piece.
 */
export interface SegmentScan {
  verdicts: GuardrailVerdict[];
  /** The first blocking check that found something (its verdict); nothing is redacted then. */
  blocked?: GuardrailVerdict;
  /** The pieces with redact-action findings replaced, when there were any. */
  redacted?: string[];
}

export const SEGMENT_SEPARATOR = '\n';

export function joinSegments(segments: readonly string[]): string {
  return segments.length === 1 ? segments[0]! : segments.join(SEGMENT_SEPARATOR);
}

/** Runs the built-in and regex checks at a stage over the joined pieces: linear in their length. */
export function scanSegments(segments: readonly string[], guardrails: CompiledGuardrails, stage: GuardrailStage, meter: ScanMeter = { steps: 0 }): SegmentScan {
  const checks = checksAt(guardrails, stage);
  if (checks.length === 0 || segments.length === 0) return { verdicts: [] };
  const text = joinSegments(segments);
  const verdicts: GuardrailVerdict[] = [];
  const toRedact: Finding[] = [];
  let blocked: GuardrailVerdict | undefined;
  for (const check of checks) {
    const findings = findForCheck(check, text, meter);
    if (findings.length === 0) continue;
    const verdict = verdictOf(check, stage, findings);
    verdicts.push(verdict);
    if (check.action === 'block') blocked ??= verdict;
    else if (check.action === 'redact') toRedact.push(...findings);
  }
  if (blocked) return { verdicts, blocked };
  if (toRedact.length === 0) return { verdicts };
  return { verdicts, redacted: redactSegments(segments, toRedact) };
}

/**
 * Replaces spans of the joined text (UTF-16 offsets; any order, may overlap) in the pieces they
 * fall in. A span across a separator is redacted in each piece it touches.
 */
export function redactSegments(segments: readonly string[], spans: readonly Finding[]): string[] {
  const merged = mergeFindings(spans);
  const out: string[] = [];
  let start = 0;
  let next = 0;
  for (const segment of segments) {
    const end = start + segment.length;
    const local: Finding[] = [];
    while (next < merged.length && merged[next]!.end <= start) next++;
    for (let i = next; i < merged.length && merged[i]!.start < end; i++) {
      const span = merged[i]!;
      if (span.end > start) local.push({ kind: span.kind, start: Math.max(span.start, start) - start, end: Math.min(span.end, end) - start });
    }
    out.push(local.length > 0 ? applyRedactions(segment, local) : segment);
    start = end + SEGMENT_SEPARATOR.length;
  }
  return out;
}
