import { type CompiledCheck, type CompiledGuardrails, checksAt, findForCheck } from './compile-guardrails';
import { type Finding, type ScanMeter } from './finding';
import { type GuardrailBlock, type GuardrailVerdict } from './guardrail-engine';
import { applyRedactions, mergeFindings } from './redact-spans';

/** Where a stream was stopped: the check, and the chunk (0-based) holding the end of the first violation. */
export interface StreamBlock extends GuardrailBlock {
  chunk: number;
}

export interface StreamStep {
  /** Text safe to send to the client now (possibly empty). */
  text: string;
  blocked?: StreamBlock;
}

/**
 * When to rescan: once the new text is an eighth of what the scan reads (the held-back text, the
 * new text, a regex check's look-back, and a fixed allowance for the call itself), and at the
 * latest every 32 characters. After plain words little is held back, so each ordinary chunk is
 * scanned and released as it comes; one-character chunks or a long held-back tail are scanned
 * less often, so the work per character stays bounded however the answer is chunked.
 */
const RESCAN_RATIO = 8;
const SCAN_OVERHEAD = 16;
const MAX_UNSCANNED = 32;

/**
 * Output checks over a streamed answer. Text is passed on as soon as no finding can still start
 * in it or change: each check holds back from the earliest offset where more text could matter
 * (a detector's open trailing run, such as digits and separators or the local part before a
 * future `@`, or its last trigger such as `-----BEGIN`; a regex's longest match).
 * The concatenated output equals one-shot redaction of the whole text, however it was chunked,
 * because every finding depends only on text within its check's window (see Detector).
 */
export class StreamingRedactor {
  private readonly checks: CompiledCheck[];
  private readonly context: number;
  /** How far before the emitted text a scan reads (regex checks' look-back). */
  private readonly lookBack: number;
  /** Text kept: the emitted context (for the checks to look back on) then the held-back text. */
  private buffer = '';
  /** Offset of buffer[0] in the whole text. */
  private bufferStart = 0;
  /** Length of the emitted context at the front of buffer. */
  private emitted = 0;
  private unscanned = 0;
  /** The whole-text offset each chunk ends at. */
  private readonly chunkEnds: number[] = [];
  private readonly kinds = new Map<CompiledCheck, Set<string>>();
  private blocked: StreamBlock | undefined;

  constructor(
    guardrails: CompiledGuardrails,
    readonly meter: ScanMeter = { steps: 0 },
  ) {
    this.checks = checksAt(guardrails, 'output');
    this.context = 2 * Math.max(0, ...this.checks.map((c) => c.window));
    this.lookBack = 2 * Math.max(0, ...this.checks.map((c) => (c.program ? c.window : 0)));
  }

  push(chunk: string): StreamStep {
    if (this.blocked) return { text: '', blocked: this.blocked };
    this.buffer += chunk;
    this.chunkEnds.push(this.bufferStart + this.buffer.length);
    this.unscanned += chunk.length;
    if (this.checks.length === 0) return this.emit(this.buffer.length, []);
    if (this.unscanned < MAX_UNSCANNED && this.unscanned * RESCAN_RATIO < this.scanLength()) return { text: '' };
    return this.scan(false);
  }

  private scanLength(): number {
    return this.buffer.length - this.emitted + this.lookBack + SCAN_OVERHEAD;
  }

  /** The end of the answer: whatever was held back, redacted, or the block. */
  flush(): StreamStep {
    if (this.blocked) return { text: '', blocked: this.blocked };
    return this.checks.length === 0 ? this.emit(this.buffer.length, []) : this.scan(true);
  }

  /** What the checks found so far, for the ledger. */
  verdicts(): GuardrailVerdict[] {
    return this.checks
      .filter((check) => this.kinds.has(check))
      .map((check) => ({ check: check.check, index: check.index, stage: 'output', action: check.action, kinds: [...(this.kinds.get(check) as Set<string>)].sort() }));
  }

  private scan(atEnd: boolean): StreamStep {
    let hold = atEnd ? this.buffer.length : this.holdFrom();
    // Nothing could be released (the new text only extends a held-back run): a finding there is
    // not final yet, so there is nothing to redact or block; look again when more text arrives.
    if (hold <= this.emitted) return { text: '' };
    this.unscanned = 0;
    const options = { atStart: this.bufferStart === 0, atEnd, wantFrom: this.emitted };
    const toRedact: Finding[] = [];
    let violation: { check: CompiledCheck; end: number } | undefined;
    for (const check of this.checks) {
      const findings = findForCheck(check, this.buffer, this.meter, options).filter((f) => f.start >= this.emitted);
      const final = findings.filter((f) => f.start < hold);
      if (final.length > 0) this.note(check, final);
      if (check.action === 'redact') toRedact.push(...findings);
      if (check.action !== 'block') continue;
      for (const f of final) if (!violation || f.end < violation.end) violation = { check, end: f.end };
    }
    if (violation) return this.block(violation.check, violation.end);
    const spans = mergeFindings(toRedact);
    const straddling = spans.find((s) => s.start < hold && s.end > hold);
    if (straddling) hold = straddling.start;
    return this.emit(hold, spans.filter((s) => s.end <= hold));
  }

  private holdFrom(): number {
    let hold = this.buffer.length;
    for (const check of this.checks) hold = Math.min(hold, holdFrom(check, this.buffer));
    return hold;
  }

  private note(check: CompiledCheck, findings: readonly Finding[]): void {
    const kinds = this.kinds.get(check) ?? new Set<string>();
    for (const f of findings) kinds.add(f.kind);
    this.kinds.set(check, kinds);
  }

  private block(check: CompiledCheck, end: number): StreamStep {
    const offset = this.bufferStart + end - 1;
    const chunk = this.chunkEnds.findIndex((chunkEnd) => chunkEnd > offset);
    this.blocked = { check: check.check, index: check.index, chunk };
    return { text: '', blocked: this.blocked };
  }

  /** Sends buffer[emitted, upTo) with its spans redacted, and keeps the context the checks need. */
  private emit(upTo: number, spans: readonly Finding[]): StreamStep {
    if (upTo <= this.emitted) return { text: '' };
    const text = applyRedactions(this.buffer.slice(this.emitted, upTo), spans, this.emitted);
    const keepFrom = Math.max(0, upTo - this.context);
    this.buffer = this.buffer.slice(keepFrom);
    this.bufferStart += keepFrom;
    this.emitted = upTo - keepFrom;
    return { text };
  }
}

/** The earliest buffer offset at which one of this check's findings could still start or change. */
function holdFrom(check: CompiledCheck, text: string): number {
  if (check.program) return text.length - check.window;
  let hold = text.length;
  for (const d of check.detectors) hold = Math.min(hold, d.holdFrom ? d.holdFrom(text) : text.length - d.window);
  return hold;
}
