import { type CompiledCheck, type CompiledGuardrails, checksAt, findForCheck } from './compile-guardrails';
import { type Finding, type ScanMeter } from './finding';
import { type GuardrailAction, type GuardrailCheckType, type GuardrailStage } from './guardrail-check';
import { redactText } from './redact-spans';

/** What a check found at a stage: the kinds, never the matched text. Goes on the ledger row. */
export interface GuardrailVerdict {
  check: GuardrailCheckType;
  /** The check's position in its policy. */
  index: number;
  stage: GuardrailStage;
  action: GuardrailAction;
  kinds: string[];
}

export interface GuardrailBlock {
  check: GuardrailCheckType;
  index: number;
}

export interface GuardrailScanResult {
  /** One per check that found something, in policy order. */
  verdicts: GuardrailVerdict[];
  /** The first blocking check that found something; the text must not go on. */
  blocked?: GuardrailBlock;
  /** The text with redact-action findings replaced, when any were found and nothing blocked. */
  redacted?: string;
}

/**
 * Runs the built-in and regex checks that apply at a stage over one text. Pure and synchronous:
 * O(text length × (number of detectors + regex program sizes)).
 */
export function scanGuardrails(text: string, guardrails: CompiledGuardrails, stage: GuardrailStage, meter: ScanMeter = { steps: 0 }): GuardrailScanResult {
  const verdicts: GuardrailVerdict[] = [];
  const toRedact: Finding[] = [];
  let blocked: GuardrailBlock | undefined;
  for (const check of checksAt(guardrails, stage)) {
    const findings = findForCheck(check, text, meter);
    if (findings.length === 0) continue;
    verdicts.push(verdictOf(check, stage, findings));
    if (check.action === 'block') blocked ??= { check: check.check, index: check.index };
    else if (check.action === 'redact') toRedact.push(...findings);
  }
  const result: GuardrailScanResult = { verdicts };
  if (blocked) result.blocked = blocked;
  else if (toRedact.length > 0) result.redacted = redactText(text, toRedact);
  return result;
}

export function verdictOf(check: CompiledCheck, stage: GuardrailStage, findings: readonly Finding[]): GuardrailVerdict {
  const kinds = [...new Set(findings.map((f) => f.kind))].sort();
  return { check: check.check, index: check.index, stage, action: check.action, kinds };
}
