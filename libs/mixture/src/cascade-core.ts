/**
 * The cascade state and its fitted statistics, shared by fitting and by the live step.
 *
 * After calling the first j models of a plan, the state is the list of their extracted answers.
 * The answer that would be accepted is the majority answer (ties → the model more accurate in
 * the cluster). Two keys describe the state: `coarse` = the agreement structure (`0.0.1`: the
 * first two agree, the third differs; `-` = no answer found) and `fine` = the answer labels as
 * well (`A.A.B`), since models have letter biases. Fitted cells count, for the rows in a state,
 * how often the accepted answer and the escalation model were right; estimates back off
 * fine → coarse → depth base with a pseudo-count α.
 */
import { type AnswerKind, answerLabel } from './answer-extraction';

export interface CascadeState {
  fine: string;
  coarse: string;
  /** Position (in the plan) of the model whose answer would be accepted. */
  accept: number;
  answer: string | null;
  /** How many of the called models gave the accepted answer. */
  agree: number;
}

/** [rows, accepted answer correct, escalation model correct]. */
export type Cell = [number, number, number];

export interface DepthTable {
  base: Cell;
  coarse: Record<string, Cell>;
  fine: Record<string, Cell>;
}

export function cascadeState(answers: Array<string | null>, kind: AnswerKind, priority: number[]): CascadeState {
  const groups = new Map<string, number[]>();
  const structure: string[] = [];
  const ids = new Map<string, number>();
  answers.forEach((a, i) => {
    if (a === null) {
      structure.push('-');
      return;
    }
    if (!ids.has(a)) ids.set(a, ids.size);
    structure.push(String(ids.get(a)));
    groups.set(a, [...(groups.get(a) ?? []), i]);
  });
  const better = (i: number, j: number): boolean => (priority[i] ?? 0) > (priority[j] ?? 0) || ((priority[i] ?? 0) === (priority[j] ?? 0) && i < j);
  let accept = 0;
  answers.forEach((_, i) => {
    if (better(i, accept)) accept = i;
  });
  let answer: string | null = null;
  let agree = 0;
  for (const [a, members] of groups) {
    const lead = members.reduce((b, i) => (better(i, b) ? i : b), members[0] as number);
    if (members.length > agree || (members.length === agree && better(lead, accept))) [answer, agree, accept] = [a, members.length, lead];
  }
  const labels = answers.map((a) => answerLabel(a, kind)).join('.');
  const coarse = structure.join('.');
  return { fine: labels + '|' + coarse, coarse, accept, answer, agree };
}

export function addToCell(cells: Record<string, Cell>, key: string, acc: number, esc: number): void {
  const c = cells[key] ?? (cells[key] = [0, 0, 0]);
  c[0] += 1;
  c[1] += acc;
  c[2] += esc;
}

/** Backed-off rate; `own` (optional) removes one row's contribution (leave-one-out). */
function rate(cell: Cell | undefined, slot: 1 | 2, prior: number, alpha: number, own?: Cell): number {
  const n = (cell?.[0] ?? 0) - (own?.[0] ?? 0);
  const k = (cell?.[slot] ?? 0) - (own?.[slot] ?? 0);
  return (k + alpha * prior) / (n + alpha);
}

export interface StateEstimate {
  /** P(accepted answer correct | state). */
  accept: number;
  /** P(escalation model correct | state). */
  escalate: number;
  /** Rows behind the fine cell. */
  support: number;
}

/**
 * Estimates for a state at one depth. `priors` are the cluster accuracies of the accepted and
 * escalation models (the last fallback); `own` = [1, acc, esc] of a training row to leave out.
 */
export function estimateState(table: DepthTable, state: CascadeState, priors: [number, number], alpha: number, own?: Cell): StateEstimate {
  const est = (slot: 1 | 2): number => {
    const base = rate(table.base, slot, priors[slot - 1] as number, alpha, own);
    const coarse = rate(table.coarse[state.coarse], slot, base, alpha, own);
    return rate(table.fine[state.fine], slot, coarse, alpha, own);
  };
  return { accept: est(1), escalate: est(2), support: (table.fine[state.fine]?.[0] ?? 0) - (own?.[0] ?? 0) };
}
