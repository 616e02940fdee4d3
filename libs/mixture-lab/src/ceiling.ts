/**
 * The in-sample ceiling of response-reading routers on labelled rows: how well *any* policy could
 * do that, per task, decides which models to call (up to `depth` of them, one after another) and
 * which answer to return from nothing but what the live cascade sees of the answers — the option
 * letter for multiple choice, which called models agree with each other for anything else.
 *
 * The policy is chosen with the labels in hand (every state of answers gets its best action on
 * the very rows it is measured on), so the ceiling is optimistic by construction: a router fitted
 * on other rows cannot beat it on these. It answers an operator's first question about their own
 * evaluations — can routing reach the strongest model's accuracy at a fraction of its cost on this
 * data at all? — and it is how docs/decisions/0004 measures the bar of issue 6.
 *
 * Method: for a cost price λ (correct answers per USD), the best policy maximises
 * correct − λ·cost. States are independent, so it is found by recursion over the tree of states:
 * at each state, accept the best answer given so far, or call one more model and recurse on the
 * states its answers split the rows into. Sweeping λ traces the upper concave hull of
 * (cost, correct) — for each task, then for all tasks at once (same λ everywhere). Any policy of
 * the family, mixed or not, lies on or below that hull.
 */
import { type AnswerKind, type LabelledRow, answerKindOf, extractAnswer } from '@rosetta/mixture';
import { commonModels } from './load-routerbench';

export interface CeilingPoint {
  cost_usd: number;
  correct: number;
  accuracy: number;
}

export interface CeilingReport {
  rows: number;
  depth: number;
  strongest: { model: string; accuracy: number; cost_usd: number };
  /** The hull's best accuracy at `cost_share` of the strongest model's cost (interpolated). */
  at_cost_share: { cost_share: number; cost_usd: number; accuracy: number };
  /** The least share of the strongest model's cost at which the hull reaches its accuracy. */
  cost_share_at_strongest_accuracy: number | null;
  frontier: CeilingPoint[];
  tasks: Array<{ task: string; rows: number; strongest_accuracy: number; strongest_cost_usd: number; frontier: CeilingPoint[] }>;
}

export interface CeilingOptions {
  /** Most models one prompt may activate (default 3). */
  depth?: number;
  /** The cost share to report the hull at (default 0.4, issue 6's bar). */
  costShare?: number;
}

interface Outcome {
  value: number;
  correct: number;
  cost: number;
}

/** One task's rows, with the comparable answer of every model precomputed. */
interface TaskData {
  rows: LabelledRow[];
  kinds: AnswerKind[];
  answers: Map<string, Array<string | null>>;
}

const NONE = '-';

function taskData(rows: LabelledRow[], models: string[]): TaskData {
  const kinds = rows.map((r) => answerKindOf(r.prompt));
  const answers = new Map(models.map((m) => [m, rows.map((r, i) => extractAnswer(r.responses[m] ?? '', kinds[i] as AnswerKind))] as const));
  return { rows, kinds, answers };
}

/**
 * The label a newly called model adds to a row's state: its letter for multiple choice; for other
 * kinds the position of the first called model it agrees with, `new` or `-` (no answer).
 */
function labelOf(data: TaskData, row: number, model: string, called: string[]): string {
  const answer = data.answers.get(model)?.[row] ?? null;
  if (answer === null) return NONE;
  if (data.kinds[row] === 'choice') return answer;
  const same = called.findIndex((m) => data.answers.get(m)?.[row] === answer);
  return same < 0 ? 'new' : String(same);
}

/** A state of the tree: the rows that share the answers of the models called so far. */
interface StateNode {
  /** Correct answers if the best answer given so far is returned (−∞ before any call). */
  accept: number;
  /** Calling one more model: its cost on these rows and the states its answers lead to. */
  calls: Array<{ cost: number; children: StateNode[] }>;
}

/** Builds the tree of states once; only its evaluation depends on λ. */
function buildState(data: TaskData, rows: number[], called: string[], models: string[], depth: number): StateNode {
  let accept = -Infinity;
  for (const m of called) accept = Math.max(accept, rows.reduce((s, i) => s + ((data.rows[i] as LabelledRow).scores[m] ?? 0), 0));
  const calls: StateNode['calls'] = [];
  if (called.length < depth) {
    for (const m of models) {
      if (called.includes(m)) continue;
      const cost = rows.reduce((s, i) => s + ((data.rows[i] as LabelledRow).costs[m] ?? 0), 0);
      const groups = new Map<string, number[]>();
      for (const i of rows) {
        const label = labelOf(data, i, m, called);
        const g = groups.get(label);
        if (g) g.push(i);
        else groups.set(label, [i]);
      }
      const next = [...called, m];
      calls.push({ cost, children: [...groups.values()].map((g) => buildState(data, g, next, models, depth)) });
    }
  }
  return { accept, calls };
}

/** The best policy from a state at price λ (ties → the cheaper action). */
function bestFrom(node: StateNode, lambda: number): Outcome {
  const eps = 1e-9;
  let best: Outcome = { value: node.accept, correct: node.accept, cost: 0 };
  for (const call of node.calls) {
    const o: Outcome = { value: -lambda * call.cost, correct: 0, cost: call.cost };
    for (const child of call.children) {
      const c = bestFrom(child, lambda);
      o.value += c.value;
      o.correct += c.correct;
      o.cost += c.cost;
    }
    if (o.value > best.value + eps || (Math.abs(o.value - best.value) <= eps && o.cost < best.cost)) best = o;
  }
  return best;
}

/** λ values from "cost is free" to "nothing is worth a cent", geometric in between. */
function lambdaGrid(rows: LabelledRow[], models: string[]): number[] {
  const costs = rows.flatMap((r) => models.map((m) => r.costs[m] ?? 0)).filter((c) => c > 0);
  const smallest = Math.min(...costs);
  const largest = Math.max(...costs);
  if (!Number.isFinite(smallest)) return [0];
  const lo = 0.01 / largest;
  const hi = 100 / smallest;
  const steps = 160;
  return [0, ...Array.from({ length: steps + 1 }, (_, i) => lo * Math.pow(hi / lo, i / steps))];
}

/** Upper concave hull of points (cost ascending, correct strictly rising). */
function hull(points: Array<{ cost: number; correct: number }>): Array<{ cost: number; correct: number }> {
  const sorted = [...points].sort((a, b) => a.cost - b.cost || b.correct - a.correct);
  const rising: Array<{ cost: number; correct: number }> = [];
  for (const p of sorted) if (rising.length === 0 || p.correct > (rising[rising.length - 1] as { correct: number }).correct) rising.push(p);
  const out: Array<{ cost: number; correct: number }> = [];
  for (const p of rising) {
    while (out.length >= 2) {
      const a = out[out.length - 2] as { cost: number; correct: number };
      const b = out[out.length - 1] as { cost: number; correct: number };
      // drop b when it lies on or under the segment a→p
      if ((b.correct - a.correct) * (p.cost - a.cost) <= (p.correct - a.correct) * (b.cost - a.cost)) out.pop();
      else break;
    }
    out.push(p);
  }
  return out;
}

/** Hull value at `cost` (linear between vertices; flat after the last). */
function correctAt(frontier: Array<{ cost: number; correct: number }>, cost: number): number {
  let prev: { cost: number; correct: number } | undefined;
  for (const p of frontier) {
    if (p.cost >= cost) {
      if (!prev || p.cost === prev.cost) return p.cost <= cost ? p.correct : (prev?.correct ?? 0);
      return prev.correct + ((p.correct - prev.correct) * (cost - prev.cost)) / (p.cost - prev.cost);
    }
    prev = p;
  }
  return prev?.correct ?? 0;
}

/** Least hull cost at which `correct` answers are reached, or null. */
function costAt(frontier: Array<{ cost: number; correct: number }>, correct: number): number | null {
  let prev: { cost: number; correct: number } | undefined;
  for (const p of frontier) {
    if (p.correct >= correct) {
      if (!prev) return p.cost;
      return prev.cost + ((p.cost - prev.cost) * (correct - prev.correct)) / (p.correct - prev.correct);
    }
    prev = p;
  }
  return null;
}

const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const r6 = (x: number): number => Number(x.toPrecision(6));

export function routingCeiling(rows: LabelledRow[], options: CeilingOptions = {}): CeilingReport {
  const depth = options.depth ?? 3;
  const share = options.costShare ?? 0.4;
  if (!Number.isInteger(depth) || depth < 1) throw new Error('depth: an integer ≥ 1');
  const models = commonModels(rows);
  if (rows.length === 0 || models.length === 0) throw new Error('no labelled rows');
  const n = rows.length;
  const total = (m: string, rs: LabelledRow[], key: 'scores' | 'costs'): number => rs.reduce((s, r) => s + (r[key][m] ?? 0), 0);
  const strongest = [...models].sort((a, b) => total(b, rows, 'scores') - total(a, rows, 'scores') || total(a, rows, 'costs') - total(b, rows, 'costs') || a.localeCompare(b))[0] as string;

  const byTask = new Map<string, LabelledRow[]>();
  for (const r of rows) {
    const t = r.task ?? 'default';
    const list = byTask.get(t);
    if (list) list.push(r);
    else byTask.set(t, [r]);
  }
  const lambdas = lambdaGrid(rows, models);
  const tasks = [...byTask].map(([task, taskRows]) => {
    const data = taskData(taskRows, models);
    const root = buildState(data, taskRows.map((_, i) => i), [], models, depth);
    const points = lambdas.map((l) => bestFrom(root, l));
    return { task, rows: taskRows, points };
  });
  const combined = lambdas.map((_, li) => tasks.reduce((s, t) => ({ cost: s.cost + (t.points[li] as Outcome).cost, correct: s.correct + (t.points[li] as Outcome).correct }), { cost: 0, correct: 0 }));
  const frontier = hull(combined);
  const strongCost = total(strongest, rows, 'costs');
  const strongCorrect = total(strongest, rows, 'scores');
  const needed = costAt(frontier, strongCorrect);
  const point = (p: { cost: number; correct: number }, of: number): CeilingPoint => ({ cost_usd: r6(p.cost), correct: r4(p.correct), accuracy: r4(p.correct / of) });
  return {
    rows: n,
    depth,
    strongest: { model: strongest, accuracy: r4(strongCorrect / n), cost_usd: r6(strongCost) },
    at_cost_share: { cost_share: share, cost_usd: r6(share * strongCost), accuracy: r4(correctAt(frontier, share * strongCost) / n) },
    cost_share_at_strongest_accuracy: needed === null || strongCost === 0 ? null : r4(needed / strongCost),
    frontier: frontier.map((p) => point(p, n)),
    tasks: tasks.map((t) => ({
      task: t.task,
      rows: t.rows.length,
      strongest_accuracy: r4(total(strongest, t.rows, 'scores') / t.rows.length),
      strongest_cost_usd: r6(total(strongest, t.rows, 'costs')),
      frontier: hull(t.points).map((p) => point(p, t.rows.length)),
    })),
  };
}
