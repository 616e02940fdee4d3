import type { GatewayError, StreamEvent } from '@rosetta/canonical';
import {
  checksAt, guardrailRecord, jsonTextPieces, StreamingRedactor, ToolArgumentsRedactor, VerdictUnion,
  type EffectiveGuardrails, type GuardrailRecord, type GuardrailVerdict, type OutputStep,
} from '@rosetta/guardrails';
import type { StageOutcome } from './guardrail-stage';

export interface StreamGuardHooks {
  /** The stream's verdicts, once, when it ends however it ends (or when its row is recorded first). */
  record(records: GuardrailRecord[]): void;
  /** Registers the verdicts' recording to run before the ledger row is (a client that leaves mid-stream). */
  beforeRecord?(fill: () => void): void;
  /** The error a block ends the stream with. */
  blocked(record: GuardrailRecord): GatewayError;
  /** External output checks over the whole answer's pieces, when the policy has any. */
  external?(texts: string[]): Promise<StageOutcome>;
  /** The finish's usage, when a block replaces the finish (the upstream still billed it). */
  billed(finish: Extract<StreamEvent, { type: 'finish' }>): void;
}

/** The kinds of block guarded, by their opening event. */
type BlockKind = 'text' | 'thinking' | 'refusal' | 'tool';
type DeltaEvent = Extract<StreamEvent, { type: 'text-delta' | 'thinking-delta' | 'refusal-delta' | 'tool-call-delta' }>;
const DELTA_OF: Record<Exclude<BlockKind, 'tool'>, 'text-delta' | 'thinking-delta' | 'refusal-delta'> = { text: 'text-delta', thinking: 'thinking-delta', refusal: 'refusal-delta' };
const KIND_OF: Record<DeltaEvent['type'], BlockKind> = { 'text-delta': 'text', 'thinking-delta': 'thinking', 'refusal-delta': 'refusal', 'tool-call-delta': 'tool' };

const OPENED: Partial<Record<StreamEvent['type'], BlockKind>> = { 'text-start': 'text', 'thinking-start': 'thinking', 'tool-call-start': 'tool' };
const ENDS: Partial<Record<StreamEvent['type'], true>> = { 'text-end': true, 'thinking-end': true, 'tool-call-end': true };

/**
 * Output guardrails over a decoded stream (decision 0030). Each text, thinking and refusal block's
 * deltas go through a StreamingRedactor, each tool call's argument deltas through a ToolArgumentsRedactor
 * (valid JSON out whatever is redacted); each holds back only what the longest pattern needs. A
 * blocking check ends the stream with the dialect's in-stream error at the first violating chunk,
 * having sent none of the violation. A thinking block something was redacted in ends without its
 * signature (it vouched for the text as written). External checks need the whole answer: they run
 * on it at the finish, and a block then replaces the finish with the error (the text was sent; a
 * redact verdict is only recorded).
 */
export async function* guardStream(events: AsyncIterable<StreamEvent>, effective: EffectiveGuardrails, hooks: StreamGuardHooks): AsyncGenerator<StreamEvent> {
  const guard = new OutputGuard(effective, hooks);
  hooks.beforeRecord?.(() => guard.record());
  try {
    for await (const event of events) {
      const kind = OPENED[event.type];
      if (kind) guard.open((event as { index: number }).index, kind);
      if (event.type === 'text-delta' || event.type === 'thinking-delta' || event.type === 'refusal-delta' || event.type === 'tool-call-delta') {
        const out = guard.delta(event);
        if (out?.type === 'error') {
          yield out;
          return;
        }
        if (out) yield out;
        continue;
      }
      // A block's held-back text goes out before it ends; a finish ends any block still open.
      const closing = ENDS[event.type] ? [(event as { index: number }).index] : event.type === 'finish' ? guard.openBlocks() : [];
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
      yield event.type === 'thinking-end' && event.signature && guard.redacted(event.index) ? { type: 'thinking-end', index: event.index } : event;
    }
  } finally {
    guard.record();
  }
}

interface OutputRedactor {
  push(chunk: string): OutputStep;
  flush(): OutputStep;
  verdicts(): GuardrailVerdict[];
}

/** One block being guarded: its kind, its redactor (when built-in checks run on output), what it sent. */
interface Guarded {
  kind: BlockKind;
  redactor?: OutputRedactor;
  sent: string;
}

/** One stream's blocks (a redactor each), what they sent, and the verdicts. */
class OutputGuard {
  private readonly builtIn: boolean;
  private readonly keepSent: boolean;
  private readonly live = new Map<number, Guarded>();
  private readonly done = new Map<number, Guarded>();
  private readonly found = new VerdictUnion();
  private readonly extra: GuardrailRecord[] = [];
  private recorded = false;

  constructor(
    private readonly effective: EffectiveGuardrails,
    private readonly hooks: StreamGuardHooks,
  ) {
    this.builtIn = checksAt(effective.compiled, 'output').length > 0;
    // The answer as sent is kept only for external checks, which read it whole at the finish.
    this.keepSent = hooks.external !== undefined;
  }

  open(index: number, kind: BlockKind): void {
    const compiled = this.effective.compiled;
    const redactor = !this.builtIn ? undefined : kind === 'tool' ? new ToolArgumentsRedactor(compiled) : new StreamingRedactor(compiled);
    this.live.set(index, { kind, sent: '', ...(redactor ? { redactor } : {}) });
  }

  openBlocks(): number[] {
    return [...this.live.keys()];
  }

  /** What to send for a delta: the text now safe (none when all is held back), or the error of a block. */
  delta(event: DeltaEvent): StreamEvent | undefined {
    // A refusal has no start (nor end: the finish closes it); any other delta without one is guarded all the same.
    if (!this.live.has(event.index)) this.open(event.index, KIND_OF[event.type]);
    const block = this.live.get(event.index);
    const text = event.type === 'tool-call-delta' ? event.argumentsDelta : event.text;
    const step = block?.redactor ? block.redactor.push(text) : { text };
    if (step.blocked) return this.stop(block!, step.blocked.index);
    if (block && this.keepSent) block.sent += step.text;
    if (step.text === text) return event;
    return step.text ? deltaOf(event, step.text) : undefined;
  }

  /** The end of a block: its held-back text, or the error of a block. */
  close(index: number): StreamEvent | undefined {
    const block = this.live.get(index);
    if (!block) return undefined;
    this.live.delete(index);
    this.done.set(index, block);
    if (!block.redactor) return undefined;
    const step = block.redactor.flush();
    this.found.add(block.redactor.verdicts());
    if (step.blocked) return this.stop(block, step.blocked.index);
    if (this.keepSent) block.sent += step.text;
    if (!step.text) return undefined;
    return block.kind === 'tool' ? { type: 'tool-call-delta', index, argumentsDelta: step.text } : { type: DELTA_OF[block.kind], index, text: step.text };
  }

  /** Whether a closed block's text was changed by a redaction. */
  redacted(index: number): boolean {
    return this.done.get(index)?.redactor?.verdicts().some((v) => v.action === 'redact') ?? false;
  }

  /** External output checks on the answer's pieces as sent; the error that replaces the finish when one blocks. */
  async external(run: (texts: string[]) => Promise<StageOutcome>): Promise<StreamEvent | undefined> {
    const blocks = [...this.done, ...this.live].sort(([a], [b]) => a - b).map(([, block]) => block);
    const texts = blocks.flatMap((block) => (block.kind === 'tool' ? jsonTextPieces(block.sent).texts : [block.sent]));
    const outcome = await run(texts);
    this.extra.push(...outcome.records);
    return outcome.blocked ? { type: 'error', error: this.hooks.blocked(outcome.blocked) } : undefined;
  }

  record(): void {
    if (this.recorded) return;
    this.recorded = true;
    const open = [...this.live.values()].flatMap((block) => block.redactor?.verdicts() ?? []);
    const verdicts = this.found.with(open).map((v) => guardrailRecord(this.effective, v));
    this.hooks.record([...verdicts, ...this.extra]);
  }

  private stop(block: Guarded, index: number): Extract<StreamEvent, { type: 'error' }> {
    const verdict = block.redactor?.verdicts().find((v) => v.index === index && v.action === 'block');
    const check = this.effective.checks[index]!.check;
    const found = guardrailRecord(this.effective, verdict ?? { check, index, stage: 'output', action: 'block', kinds: [] });
    return { type: 'error', error: this.hooks.blocked(found) };
  }
}

function deltaOf(event: DeltaEvent, text: string): DeltaEvent {
  return event.type === 'tool-call-delta' ? { ...event, argumentsDelta: text } : { ...event, text };
}
