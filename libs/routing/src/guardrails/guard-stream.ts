import type { GatewayError, StreamEvent } from '@rosetta/canonical';
import { checksAt, guardrailRecord, StreamingRedactor, type EffectiveGuardrails, type GuardrailRecord, type GuardrailVerdict } from '@rosetta/guardrails';
import type { StageOutcome } from './guardrail-stage';

export interface StreamGuardHooks {
  /** The stream's verdicts, once, when it ends however it ends (or when its row is recorded first). */
  record(records: GuardrailRecord[]): void;
  /** Registers the verdicts' recording to run before the ledger row is (a client that leaves mid-stream). */
  beforeRecord?(fill: () => void): void;
  /** The error a block ends the stream with. */
  blocked(record: GuardrailRecord): GatewayError;
  /** External output checks over the whole answer's text, when the policy has any. */
  external?(text: string): Promise<StageOutcome>;
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
  const guard = new TextGuard(effective, hooks);
  hooks.beforeRecord?.(() => guard.record());
  try {
    for await (const event of events) {
      if (event.type === 'text-start') guard.open(event.index);
      if (event.type === 'text-delta') {
        const out = guard.delta(event.index, event.text);
        if (out.type === 'error') {
          yield out;
          return;
        }
        if (out.text) yield out.text === event.text ? event : out;
        continue;
      }
      // A block's held-back text goes out before it ends; a finish ends any block still open.
      const closing = event.type === 'text-end' ? [event.index] : event.type === 'finish' ? guard.openBlocks() : [];
      for (const index of closing) {
        const out = guard.close(index);
        if (out) yield out;
        if (out?.type === 'error') return;
      }
      if (event.type === 'finish' && hooks.external) {
        const refusal = await guard.external(hooks.external);
        if (refusal) {
          hooks.billed(event);
          yield refusal;
          return;
        }
      }
      yield event;
    }
  } finally {
    guard.record();
  }
}

/** One stream's redactors (one per text block), what was sent, and the verdicts. */
class TextGuard {
  private readonly builtIn: boolean;
  private readonly blocks = new Map<number, StreamingRedactor>();
  private readonly closed: StreamingRedactor[] = [];
  private readonly extra: GuardrailRecord[] = [];
  /** The answer as sent, for external checks (kept only when the policy has some). */
  private sent: string | undefined;
  private recorded = false;

  constructor(
    private readonly effective: EffectiveGuardrails,
    private readonly hooks: StreamGuardHooks,
  ) {
    this.builtIn = checksAt(effective.compiled, 'output').length > 0;
    if (hooks.external) this.sent = '';
  }

  open(index: number): void {
    if (this.builtIn) this.blocks.set(index, new StreamingRedactor(this.effective.compiled));
  }

  openBlocks(): number[] {
    return [...this.blocks.keys()];
  }

  /** What to send for a delta: the text now safe (possibly empty), or the error of a block. */
  delta(index: number, text: string): Extract<StreamEvent, { type: 'text-delta' | 'error' }> {
    const redactor = this.blocks.get(index);
    const step = redactor ? redactor.push(text) : { text };
    if (step.blocked) return this.stop(redactor!, step.blocked.index);
    if (this.sent !== undefined) this.sent += step.text;
    return { type: 'text-delta', index, text: step.text };
  }

  /** The end of a text block: its held-back text, or the error of a block. */
  close(index: number): StreamEvent | undefined {
    const redactor = this.blocks.get(index);
    if (!redactor) return undefined;
    this.blocks.delete(index);
    this.closed.push(redactor);
    const step = redactor.flush();
    if (step.blocked) return this.stop(redactor, step.blocked.index);
    if (this.sent !== undefined) this.sent += step.text;
    return step.text ? { type: 'text-delta', index, text: step.text } : undefined;
  }

  /** External output checks on the answer as sent; the error that replaces the finish when one blocks. */
  async external(run: (text: string) => Promise<StageOutcome>): Promise<StreamEvent | undefined> {
    const outcome = await run(this.sent ?? '');
    this.extra.push(...outcome.records);
    return outcome.blocked ? { type: 'error', error: this.hooks.blocked(outcome.blocked) } : undefined;
  }

  record(): void {
    if (this.recorded) return;
    this.recorded = true;
    const verdicts = merged([...this.closed, ...this.blocks.values()]).map((v) => guardrailRecord(this.effective, v));
    this.hooks.record([...verdicts, ...this.extra]);
  }

  private stop(redactor: StreamingRedactor, index: number): Extract<StreamEvent, { type: 'error' }> {
    const verdict = redactor.verdicts().find((v) => v.index === index && v.action === 'block');
    const check = this.effective.checks[index]!.check;
    const found = guardrailRecord(this.effective, verdict ?? { check, index, stage: 'output', action: 'block', kinds: [] });
    return { type: 'error', error: this.hooks.blocked(found) };
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
