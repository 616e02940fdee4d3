/** A span of the scanned text a check matched: UTF-16 offsets, end exclusive. Never the text itself. */
export interface Finding {
  kind: string;
  start: number;
  end: number;
}

/** Counts the work a scan did, so tests can bound it without timing anything. */
export interface ScanMeter {
  steps: number;
}

/**
 * A built-in detector: one pass over the text, linear in its length.
 *
 * Locality contract (what makes streaming redaction equal one-shot redaction): a finding is at
 * most `window` long, and whether a span starting at s is a finding depends only on the text
 * within `window` of s. `from` lets the streaming redactor rescan only a tail: findings that
 * start before it may be missed, never invented.
 */
export interface Detector {
  kind: string;
  window: number;
  find(text: string, found: Finding[], from: number, meter: ScanMeter): void;
  /**
   * The earliest offset at which a finding could still start or change once more text arrives
   * (`text.length - window` unless the detector knows better, e.g. no trigger in the tail).
   */
  holdFrom?(text: string): number;
}
