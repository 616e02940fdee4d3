import { type GuardrailVerdict } from './guardrail-engine';

/** Verdicts of many redactors as one per check: the kinds each found, joined. */
export class VerdictUnion {
  private readonly byCheck = new Map<number, GuardrailVerdict>();

  add(verdicts: readonly GuardrailVerdict[]): void {
    for (const verdict of verdicts) {
      const seen = this.byCheck.get(verdict.index);
      this.byCheck.set(verdict.index, seen ? { ...seen, kinds: [...new Set([...seen.kinds, ...verdict.kinds])].sort() } : verdict);
    }
  }

  /** The union with `more` (not kept), in policy order. */
  with(more: readonly GuardrailVerdict[]): GuardrailVerdict[] {
    const union = new VerdictUnion();
    union.add([...this.byCheck.values()]);
    union.add(more);
    return [...union.byCheck.values()].sort((a, b) => a.index - b.index);
  }
}
