import type { GatewayError, StreamEvent } from '@rosetta/canonical';
import { checksAt, guardrailRecord, StreamingRedactor, type EffectiveGuardrails, type GuardrailRecord, type GuardrailVerdict } from '@rosetta/guardrails';
import type { StageOutcome } from './guardrail-stage';

export interface StreamGuardHooks {
  /** The stream's verdicts, once, when it ends however it ends (or when its row is recorded first). */
  record(records: GuardrailRecord[]): void;
  /** The error a block ends the stream with. */
  blocked(record: GuardrailRecord): GatewayError;
  /** External output checks over the whole answer's text, when the policy has any. */
  external?(text: string): Promise<StageOutcome>;
  /** Registers the verdicts' recording to run before the ledger row is (a client that leaves mid-stream). */
  beforeRecord?(fill: () => void): void;
  /** The finish's usage, when a block replaces the finish (the upstream still billed it). */
  billed(finish: Extract<StreamEvent, { type: 'finish' }>): void;
}

/**
 * Output guardrails over a decoded stream (decision 0030). Each text block's deltas go through a
 * StreamingRedactor, which holds back only what the longest pattern needs; a blocking check ends
 * the stream with the dialect's in-stream error at the first violating chunk, having sent none of
 * the violation. External checks need the whole answer: they run on it at the finish, and a block
 * then replaces the finish with the error (the text was sent; a redact verdict is only recorded).
 */
export async function* guardStream(events: AsyncIterable<StreamEvent>, effective: EffectiveGuardrails, hooks: StreamGuardHooks): AsyncGenerator<StreamEvent> {
  const builtIn = checksAt(effective.compiled, 'output').length > 0;
  const redactors = new Map<number, StreamingRedactor>();
  const finished: StreamingRedactor[] = [];
  const extra: GuardrailRecord[] = [];
  let whole = hooks.external ? '' : undefined;
  let recorded = false;
  const record = (): void => {
    if (recorded) return;
    recorded = true;
    hooks.record([...merged([...finished, ...redactors.values()]).map((v) => guardrailRecord(effective, v)), ...extra]);
  };
  const stop = (redactor: StreamingRedactor, index: number): StreamEvent => {
    const verdict = redactor.verdicts().find((v) => v.index === index && v.action === 'block');
    const found = verdict ? guardrailRecord(effective, verdict) : guardrailRecord(effective, { check: effective.checks[index]!.check, index, stage: 'output', action: 'block', kinds: [] });
    return { type: 'error', error: hooks.blocked(found) };
  };
  hooks.beforeRecord?.(record);
  try {
    for await (const event of events) {
      if (event.type === 'text-start' && builtIn) redactors.set(event.index, new StreamingRedactor(effective.compiled));
      const redactor = event.type === 'text-delta' || event.type === 'text-end' ? redactors.get(event.index) : undefined;
      if (event.type === 'text-delta') {
        const step = redactor ? redactor.push(event.text) : { text: event.text };
        if (step.blocked) {
          yield stop(redactor!, step.blocked.index);
          return;
        }
        if (whole !== undefined) whole += step.text;
        if (step.text) yield step.text === event.text ? event : { ...event, text: step.text };
        continue;
      }
      // A block's held-back text goes out before it ends; a finish ends any block still open.
      const closing = event.type === 'text-end' && redactor ? [[event.index, redactor] as const] : event.type === 'finish' ? [...redactors] : [];
      for (const [index, open] of closing) {
        const step = open.flush();
        redactors.delete(index);
        finished.push(open);
        if (step.blocked) {
          yield stop(open, step.blocked.index);
          return;
        }
        if (whole !== undefined) whole += step.text;
        if (step.text) yield { type: 'text-delta', index, text: step.text };
      }
      if (event.type === 'finish' && hooks.external && whole !== undefined) {
        const outcome = await hooks.external(whole);
        extra.push(...outcome.records);
        if (outcome.blocked) {
          hooks.billed(event);
          yield { type: 'error', error: hooks.blocked(outcome.blocked) };
          return;
        }
      }
      yield event;
    }
  } finally {
    record();
  }
}

/** The verdicts of every text block, one per check (kinds joined). */
function merged(redactors: readonly StreamingRedactor[]): GuardrailVerdict[] {
  const byCheck = new Map<number, GuardrailVerdict>();
  for (const redactor of redactors) {
    for (const verdict of redactor.verdicts()) {
      const seen = byCheck.get(verdict.index);
      byCheck.set(verdict.index, seen ? { ...seen, kinds: [...new Set([...seen.kinds, ...verdict.kinds])].sort() } : verdict);
    }
  }
  return [...byCheck.values()].sort((a, b) => a.index - b.index);
}
