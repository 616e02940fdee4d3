import type { GuardrailStage, ModelCheck, WebhookCheck } from './guardrail-check';

/**
 * The seam between the data plane, which runs a policy's checks in order, and the checks that
 * run elsewhere (an operator's HTTP endpoint, a classifier model). The data plane owns ordering,
 * the verdict's effect (block, redact, log) and the ledger; a runner owns the call.
 */
export type ExternalCheck = WebhookCheck | ModelCheck;

export interface ExternalCheckContext {
  requestId: string;
  keyId: string;
  /** Aborted when the client leaves: the runner stops waiting. */
  signal?: AbortSignal;
}

/** A span of the scanned text, in UTF-16 code units, to be replaced by `[REDACTED:<kind>]`. */
export interface ExternalSpan {
  start: number;
  end: number;
  kind: string;
}

/**
 * What the check decided. `unavailable`: it could not decide (time-out, unreachable, refused URL,
 * an answer that is not a verdict); the caller applies the check's `fail` choice. Spans are
 * validated by the runner: within the text, non-empty, sorted and joined where they overlap.
 */
export type ExternalVerdict =
  | { action: 'allow' }
  | { action: 'block'; kinds: string[] }
  | { action: 'redact'; spans: ExternalSpan[] }
  | { action: 'unavailable'; reason: 'timeout' | 'unreachable' | 'refused_url' | 'bad_verdict' | 'upstream_error' };

/** A model check's own call, for the request's ledger row (its cost is charged with the request's). */
export interface ExternalCheckCall {
  model: string;
  provider: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface ExternalCheckResult {
  verdict: ExternalVerdict;
  call?: ExternalCheckCall;
}

export interface ExternalCheckRunner {
  run(check: ExternalCheck, text: string, stage: GuardrailStage, context: ExternalCheckContext): Promise<ExternalCheckResult>;
}

/** Nest injection token of the ExternalCheckRunner. */
export const EXTERNAL_CHECK_RUNNER = Symbol('EXTERNAL_CHECK_RUNNER');
