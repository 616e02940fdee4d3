import {
  guardrailRecord, joinSegments, redactSegments, scanSegments,
  type EffectiveExternal, type EffectiveGuardrails, type ExternalCheckContext, type ExternalCheckResult, type ExternalCheckRunner, type ExternalVerdict,
  type GuardrailAction, type GuardrailRecord, type GuardrailStage,
} from '@rosetta/guardrails';

/** What a stage decided over a request's or an answer's pieces of text. */
export interface StageOutcome {
  records: GuardrailRecord[];
  /** The check that stopped the text; nothing goes on. */
  blocked?: GuardrailRecord;
  /** The pieces after redaction, when anything was redacted. */
  texts?: string[];
  /** What external model checks cost (charged with the request). */
  checkCosts: ExternalCheckResult['call'][];
}

/** The built-in checks: synchronous, linear in the text. */
export function builtInStage(texts: readonly string[], effective: EffectiveGuardrails, stage: GuardrailStage): StageOutcome {
  const scan = scanSegments(texts, effective.compiled, stage);
  const records = scan.verdicts.map((verdict) => guardrailRecord(effective, verdict));
  const outcome: StageOutcome = { records, checkCosts: [] };
  if (scan.blocked) outcome.blocked = records[scan.verdicts.indexOf(scan.blocked)];
  if (scan.redacted) outcome.texts = scan.redacted;
  return outcome;
}

/**
 * The external checks after the built-in ones, one at a time in policy order: each sees the text
 * as the checks before it left it (redactions applied), and the first block ends the stage.
 */
export async function externalStage(
  outcome: StageOutcome,
  original: readonly string[],
  externals: readonly EffectiveExternal[],
  effective: EffectiveGuardrails,
  stage: GuardrailStage,
  runner: ExternalCheckRunner,
  context: ExternalCheckContext,
): Promise<StageOutcome> {
  let texts: readonly string[] = outcome.texts ?? original;
  for (const { at, check } of externals) {
    if (outcome.blocked) break;
    // A runner that fails (throws, or rejects) could not decide: the check's `fail` choice applies.
    const result = await Promise.resolve()
      .then(() => runner.run(check, joinSegments(texts), stage, context))
      .catch((): ExternalCheckResult => ({ verdict: { action: 'unavailable', reason: 'upstream_error' } }));
    if (result.call) outcome.checkCosts.push(result.call);
    const applied = applyVerdict(result.verdict, check.action, check.check === 'webhook' ? check.fail : 'closed');
    if (!applied) continue;
    const origin = effective.origins[at]!;
    const record: GuardrailRecord = { check: check.check, source: origin.source, index: origin.index, stage, action: applied.action, kinds: applied.kinds };
    if (applied.unavailable) record.unavailable = applied.unavailable;
    outcome.records.push(record);
    if (applied.action === 'block') outcome.blocked = record;
    else if (applied.action === 'redact' && result.verdict.action === 'redact') {
      const redacted = redactSegments(texts, result.verdict.spans);
      outcome.texts = redacted;
      texts = redacted;
    }
  }
  return outcome;
}

/**
 * What a verdict does under the check's action: `log` only records what the check said (a way to
 * try an endpoint without letting it stop traffic); otherwise the verdict is obeyed. A check that
 * could not decide is a block when it fails closed (webhook `fail: closed`, every model check)
 * and a logged verdict when it fails open.
 */
export function applyVerdict(verdict: ExternalVerdict, action: GuardrailAction, fail: 'open' | 'closed'): { action: GuardrailAction; kinds: string[]; unavailable?: string } | undefined {
  switch (verdict.action) {
    case 'allow':
      return undefined;
    case 'block':
      return { action: action === 'log' ? 'log' : 'block', kinds: [...new Set(verdict.kinds)].sort() };
    case 'redact': {
      if (verdict.spans.length === 0) return undefined;
      return { action: action === 'log' ? 'log' : 'redact', kinds: [...new Set(verdict.spans.map((s) => s.kind))].sort() };
    }
    case 'unavailable':
      return { action: action !== 'log' && fail === 'closed' ? 'block' : 'log', kinds: [], unavailable: verdict.reason };
  }
}
