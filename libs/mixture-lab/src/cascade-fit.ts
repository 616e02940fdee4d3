/**
 * Fitting the cascade policy: for every cluster and every λ of the grid, the plan (a short
 * sequence of cheap models, then an escalation model; or one model alone) that maximises
 * Σ correct − λ·Σ cost on the training rows, where each row is decided exactly as the live step
 * decides (accept when P(accepted answer correct) ≥ P(escalation correct) − λ·cost(escalation))
 * with leave-one-out cell statistics, so plans are not chosen for fitting their own rows.
 * The state and its estimates are @rosetta/mixture's (cascade-core.ts), the very code the live
 * step runs; the plans it returns are that library's `CascadePlan`s (cascade-plan.ts).
 */
import {
  type AnswerKind,
  type CascadePlan,
  type CascadeState,
  type DepthTable,
  type LabelledRow,
  addToCell,
  answerKindOf,
  cascadeState,
  estimateState,
  extractAnswer,
} from '@rosetta/mixture';

/** What the fitter knows about a training row. */
export interface PreparedRow {
  row: LabelledRow;
  cluster: number;
  kind: AnswerKind;
  answers: Record<string, string | null>;
  /** Predicted cost per model (what the live router would believe). */
  predictedCost: Record<string, number>;
}

const answerCache = new Map<string, string | null>();

export function preparedAnswers(row: LabelledRow, models: string[]): { kind: AnswerKind; answers: Record<string, string | null> } {
  const kind = answerKindOf(row.prompt);
  const answers: Record<string, string | null> = {};
  for (const m of models) {
    const text = row.responses[m] ?? '';
    const key = kind + '\u0000' + text;
    if (!answerCache.has(key)) answerCache.set(key, extractAnswer(text, kind));
    answers[m] = answerCache.get(key) as string | null;
  }
  return { kind, answers };
}

interface RowOutcome {
  /** Per depth: accepted answer correct, LOO estimates. */
  acc: number[];
  pAcc: number[];
  pEsc: number[];
  escCorrect: number;
  /** Cumulative actual cost after each depth; last entry adds the escalation. */
  cost: number[];
  escPredicted: number;
}

type StateCache = Map<string, CascadeState[]>;

/** States of every row after the first j+1 models, cached by that model sequence. */
function statesAt(rows: PreparedRow[], prefix: string[], j: number, priority: number[], cache: StateCache): CascadeState[] {
  const key = prefix.slice(0, j + 1).join('>');
  let states = cache.get(key);
  if (!states) {
    const head = prefix.slice(0, j + 1);
    states = rows.map((p) => cascadeState(head.map((m) => p.answers[m] ?? null), p.kind, priority));
    cache.set(key, states);
  }
  return states;
}

function buildTables(rows: PreparedRow[], prefix: string[], esc: string, priority: number[], cache: StateCache): { tables: DepthTable[]; states: CascadeState[][] } {
  const states = prefix.map((_, j) => statesAt(rows, prefix, j, priority, cache));
  const tables: DepthTable[] = states.map((depth) => {
    const t: DepthTable = { base: [0, 0, 0], coarse: {}, fine: {} };
    depth.forEach((s, r) => {
      const row = (rows[r] as PreparedRow).row;
      const a = row.scores[prefix[s.accept] as string] ?? 0;
      const e = row.scores[esc] ?? 0;
      t.base[0] += 1;
      t.base[1] += a;
      t.base[2] += e;
      addToCell(t.coarse, s.coarse, a, e);
      addToCell(t.fine, s.fine, a, e);
    });
    return t;
  });
  return { tables, states };
}

function outcomes(rows: PreparedRow[], prefix: string[], esc: string, priors: number[], alpha: number, cache: StateCache): { tables: DepthTable[]; out: RowOutcome[] } {
  const priority = priors.slice(0, prefix.length);
  const { tables, states } = buildTables(rows, prefix, esc, priority, cache);
  const escPrior = priors[prefix.length] as number;
  const out = rows.map((p, r) => {
    const e = p.row.scores[esc] ?? 0;
    const o: RowOutcome = { acc: [], pAcc: [], pEsc: [], escCorrect: e, cost: [], escPredicted: p.predictedCost[esc] ?? 0 };
    let cost = 0;
    prefix.forEach((m, j) => {
      const s = (states[j] as CascadeState[])[r] as CascadeState;
      const a = p.row.scores[prefix[s.accept] as string] ?? 0;
      const est = estimateState(tables[j] as DepthTable, s, [priority[s.accept] as number, escPrior], alpha, [1, a, e]);
      o.acc.push(a);
      o.pAcc.push(est.accept);
      o.pEsc.push(est.escalate);
      cost += p.row.costs[m] ?? 0;
      o.cost.push(cost);
    });
    o.cost.push(cost + (p.row.costs[esc] ?? 0));
    return o;
  });
  return { tables, out };
}

/** [correct, cost] of a cascade on its rows at one λ, deciding as the live step does. */
function simulate(out: RowOutcome[], lambda: number): [number, number] {
  let correct = 0;
  let cost = 0;
  for (const o of out) {
    let done = false;
    for (let j = 0; j < o.acc.length; j++) {
      if ((o.pAcc[j] as number) >= (o.pEsc[j] as number) - lambda * o.escPredicted) {
        correct += o.acc[j] as number;
        cost += o.cost[j] as number;
        done = true;
        break;
      }
    }
    if (!done) {
      correct += o.escCorrect;
      cost += o.cost[o.cost.length - 1] as number;
    }
  }
  return [correct, cost];
}

function permutations(pool: string[], maxLen: number): string[][] {
  const out: string[][] = [];
  const walk = (prefix: string[]): void => {
    if (prefix.length > 0) out.push(prefix);
    if (prefix.length === maxLen) return;
    for (const m of pool) if (!prefix.includes(m)) walk([...prefix, m]);
  };
  walk([]);
  return out;
}

export interface SearchOptions {
  alpha: number;
  lambdas: number[];
  /** Cheap models considered for the first steps of a cascade. */
  poolSize: number;
  maxPrefix: number;
  /** Escalation models considered: the most accurate ones in the cluster. */
  escalations: number;
  /** Utility slack (fraction of the cluster's rows) within which the simplest plan is preferred. */
  margin: number;
}

export interface ClusterSearch {
  plans: CascadePlan[];
  /** Best plan index (into `plans`) per λ, and its training [correct, cost]. */
  best: Array<{ plan: number; correct: number; cost: number }>;
}

/** Candidate plans for one cluster, scored at every λ; returns the best per λ. */
export function searchCluster(rows: PreparedRow[], cluster: number, models: string[], accuracy: number[], opts: SearchOptions): ClusterSearch {
  const acc = new Map(models.map((m, j) => [m, accuracy[j] as number]));
  const meanCost = new Map(models.map((m) => [m, rows.reduce((s, p) => s + (p.row.costs[m] ?? 0), 0) / Math.max(1, rows.length)]));
  const byAcc = [...models].sort((a, b) => (acc.get(b) as number) - (acc.get(a) as number) || a.localeCompare(b));
  const top = byAcc[0] as string;
  const pool = byAcc.filter((m) => (meanCost.get(m) as number) <= 0.25 * (meanCost.get(top) as number)).slice(0, opts.poolSize);
  const plans: CascadePlan[] = [];
  const results: Array<Array<[number, number]>> = [];
  const cache: StateCache = new Map();
  for (const m of models) {
    plans.push({ key: m, cluster, models: [m], cascade: false, priors: [acc.get(m) as number], tables: [] });
    const correct = rows.reduce((s, p) => s + (p.row.scores[m] ?? 0), 0);
    const cost = rows.reduce((s, p) => s + (p.row.costs[m] ?? 0), 0);
    results.push(opts.lambdas.map(() => [correct, cost]));
  }
  for (const prefix of permutations(pool, opts.maxPrefix)) {
    for (const esc of byAcc.filter((m) => !prefix.includes(m)).slice(0, opts.escalations)) {
      const all = [...prefix, esc];
      const priors = all.map((m) => acc.get(m) as number);
      const { tables, out } = outcomes(rows, prefix, esc, priors, opts.alpha, cache);
      plans.push({ key: all.join('>'), cluster, models: all, cascade: true, priors, tables });
      results.push(opts.lambdas.map((l) => simulate(out, l)));
    }
  }
  // Winner's-curse guard: among plans within `margin`·rows of the best utility and not dominated
  // by another of them (at least as accurate and as cheap), the one with the fewest models wins
  // (then lower cost, then key).
  const slack = opts.margin * rows.length;
  const best = opts.lambdas.map((l, li) => {
    const at = results.map((res) => res[li] as [number, number]);
    const util = at.map(([c, k]) => c - l * k);
    const top = Math.max(...util);
    const near = at.map((_, i) => i).filter((i) => (util[i] as number) >= top - slack - 1e-12);
    const dominated = (i: number): boolean => {
      const [c, k] = at[i] as [number, number];
      return near.some((j) => {
        const [cj, kj] = at[j] as [number, number];
        return cj >= c && kj <= k && (cj > c || kj < k);
      });
    };
    const pool = near.filter((i) => !dominated(i));
    const bi = pool.reduce((b, i) => {
      const [p, q] = [plans[i] as CascadePlan, plans[b] as CascadePlan];
      const [k, bk] = [(at[i] as [number, number])[1], (at[b] as [number, number])[1]];
      return p.models.length < q.models.length || (p.models.length === q.models.length && (k < bk || (k === bk && p.key < q.key))) ? i : b;
    }, pool[0] as number);
    const [correct, cost] = at[bi] as [number, number];
    return { plan: bi, correct, cost };
  });
  return { plans, best: monotone(best, results) };
}

/**
 * The guard above can prefer a simpler plan at a small λ that is less accurate than the plan
 * chosen at a larger λ; keep the knob monotone (higher knob → no less accuracy and cost) by
 * carrying the smaller-λ plan forward, evaluated at the larger λ, wherever that happens.
 */
function monotone(best: ClusterSearch['best'], results: Array<Array<[number, number]>>): ClusterSearch['best'] {
  const out = [...best];
  for (let li = 1; li < out.length; li++) {
    const prev = out[li - 1] as ClusterSearch['best'][number];
    const cur = out[li] as ClusterSearch['best'][number];
    if (cur.correct <= prev.correct && cur.cost <= prev.cost) continue;
    const [c, k] = (results[prev.plan] as Array<[number, number]>)[li] as [number, number];
    if (c <= prev.correct && k <= prev.cost) out[li] = { plan: prev.plan, correct: c, cost: k };
  }
  return out;
}
