import { type GuardrailAction, type GuardrailCheckType, type GuardrailStage } from './guardrail-check';
import { type GuardrailVerdict } from './guardrail-engine';
import { type EffectiveGuardrails, type GuardrailSource } from './effective-guardrails';

/**
 * One verdict as the request's ledger row keeps it (`guardrails` on request_log, ARCHITECTURE §9):
 * the check's type, the level and position it was configured at, the stage, the action taken, and
 * the kinds found — never the matched text.
 */
export interface GuardrailRecord {
  check: GuardrailCheckType;
  source: GuardrailSource;
  index: number;
  stage: GuardrailStage;
  action: GuardrailAction;
  kinds: string[];
  /** An external check that could not decide (its `fail` choice was applied): why. */
  unavailable?: string;
}

/** A verdict of the effective policy (indexed by its merged position) as its ledger record. */
export function guardrailRecord(effective: EffectiveGuardrails, verdict: GuardrailVerdict): GuardrailRecord {
  const origin = effective.origins[verdict.index] ?? { source: 'key' as const, index: verdict.index };
  return { check: verdict.check, source: origin.source, index: origin.index, stage: verdict.stage, action: verdict.action, kinds: verdict.kinds };
}

const SOURCE_NAMES: Record<GuardrailSource, string> = { key: "the key's", team: "the team's", plan: "the plan's" };

/**
 * The message of a block: the check and the kinds it found, never the matched text (kinds are
 * from a fixed list, an operator's pattern name, or a webhook's sanitised kind).
 */
export function blockMessage(record: Pick<GuardrailRecord, 'check' | 'source' | 'index' | 'stage' | 'kinds' | 'unavailable'>): string {
  const what = record.unavailable ? `unavailable: ${record.unavailable}` : record.kinds.join(', ');
  return `Blocked by ${SOURCE_NAMES[record.source]} guardrail ${record.index} (${record.check}${what ? `: ${what}` : ''}) on ${record.stage}.`;
}
