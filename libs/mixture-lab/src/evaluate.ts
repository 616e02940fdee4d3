/**
 * Offline evaluation on labelled rows. The router sees only the prompt text and the artefact;
 * cascades read the recorded `<model>|model_response` of each model they activate, decide with
 * the same `decideCascadeStep` as the live gateway, and are charged the recorded cost of every
 * model activated.
 */
import {
  type CascadeResponse,
  type LabelledRow,
  type RouteMode,
  type RouterArtefact,
  type Signal,
  decide,
  decideCascadeStep,
  defaultKnobFor,
  extractSignals,
} from '@rosetta/mixture';
import { aiq, hullAt, nonDecreasingHull } from './aiq';
import { commonModels } from './load-routerbench';

export interface RowOutcome {
  correct: number;
  cost: number;
  calls: number;
}

/** Routes one labelled row as the live router would. */
export function routeRow(artefact: RouterArtefact, row: LabelledRow, knob: number, mode: RouteMode, models: string[], signals?: Signal[]): RowOutcome {
  const decision = decide({ text: row.prompt, candidates: models.map((id) => ({ id })), knob, mode, signals }, artefact);
  if (decision.mode === 'single') return { correct: row.scores[decision.chosen] ?? 0, cost: row.costs[decision.chosen] ?? 0, calls: 1 };
  const responses: CascadeResponse[] = [];
  let cost = 0;
  for (let guard = 0; guard <= decision.plan.length; guard++) {
    const step = decideCascadeStep({ text: row.prompt, plan: decision.plan, responses, knob }, artefact);
    if (step.action === 'accept') return { correct: row.scores[step.model] ?? 0, cost, calls: responses.length };
    cost += row.costs[step.model] ?? 0;
    responses.push({ model: step.model, text: row.responses[step.model] ?? '' });
  }
  throw new Error('cascade did not terminate');
}

interface Tally {
  correct: number;
  cost: number;
  calls: number;
}

/** Sums over rows, so folds can be added up. */
export interface EvalSums {
  rows: number;
  knobs: number[];
  router: Tally[];
  /**
   * The router's whole family: one policy per λ of the calibration grid (the knob mixes two
   * neighbours between them), routed at the knob value each artefact gives that λ. AIQ's points.
   */
  family: Tally[];
  /** Each artefact's own default knob (one per fold in cross-validation), rows-weighted. */
  atDefault: Tally & { knobSum: number };
  singles: Record<string, { correct: number; cost: number }>;
  random: { correct: number; cost: number };
  oracle: { correct: number; cost: number };
  /** The same sums per task (`eval_name`); absent inside a task's own sums. */
  tasks?: Record<string, EvalSums>;
}

export function emptySums(knobs: number[], models: string[], perTask = true): EvalSums {
  const singles: EvalSums['singles'] = {};
  for (const m of models) singles[m] = { correct: 0, cost: 0 };
  return {
    rows: 0,
    knobs,
    router: knobs.map(() => ({ correct: 0, cost: 0, calls: 0 })),
    family: [],
    atDefault: { correct: 0, cost: 0, calls: 0, knobSum: 0 },
    singles,
    random: { correct: 0, cost: 0 },
    oracle: { correct: 0, cost: 0 },
    ...(perTask ? { tasks: {} } : {}),
  };
}

/** What one row contributes: the router at every knob and at the default, and the baselines. */
interface RowResult {
  row: LabelledRow;
  curve: RowOutcome[];
  family: RowOutcome[];
  atDefault: RowOutcome;
  knob: number;
}

function add(acc: Tally, o: RowOutcome): void {
  acc.correct += o.correct;
  acc.cost += o.cost;
  acc.calls += o.calls;
}

function addRow(sums: EvalSums, r: RowResult): void {
  const { row } = r;
  sums.rows++;
  r.curve.forEach((o, i) => add(sums.router[i] as Tally, o));
  r.family.forEach((o, i) => add((sums.family[i] ??= { correct: 0, cost: 0, calls: 0 }), o));
  add(sums.atDefault, r.atDefault);
  sums.atDefault.knobSum += r.knob;
  const ms = Object.keys(sums.singles);
  for (const m of ms) {
    const s = sums.singles[m] as { correct: number; cost: number };
    s.correct += row.scores[m] ?? 0;
    s.cost += row.costs[m] ?? 0;
  }
  sums.random.correct += ms.reduce((s, m) => s + (row.scores[m] ?? 0), 0) / ms.length;
  sums.random.cost += ms.reduce((s, m) => s + (row.costs[m] ?? 0), 0) / ms.length;
  const right = ms.filter((m) => row.scores[m] === 1);
  const pool = right.length > 0 ? right : ms;
  const cheapest = pool.reduce((b, m) => ((row.costs[m] ?? 0) < (row.costs[b] ?? 0) ? m : b), pool[0] as string);
  sums.oracle.correct += right.length > 0 ? 1 : 0;
  sums.oracle.cost += row.costs[cheapest] ?? 0;
}

/** Adds the outcomes of `rows` (routed with `artefact`) to `sums`, overall and per task. */
export function accumulate(sums: EvalSums, artefact: RouterArtefact, rows: LabelledRow[], mode: RouteMode): void {
  const models = Object.keys(sums.singles).filter((m) => artefact.models.includes(m));
  const knob = defaultKnobFor(artefact, mode);
  const familyKnobs = (mode === 'cascade' ? artefact.cascade.curve : artefact.single).knobs;
  for (const row of rows) {
    // Signals do not depend on the knob: extracted once per prompt, as the live path does.
    const signals = extractSignals({ text: row.prompt }, { classifier: artefact.classifier });
    const result: RowResult = {
      row,
      curve: sums.knobs.map((k) => routeRow(artefact, row, k, mode, models, signals)),
      family: familyKnobs.map((k) => routeRow(artefact, row, k, mode, models, signals)),
      atDefault: routeRow(artefact, row, knob, mode, models, signals),
      knob,
    };
    addRow(sums, result);
    if (sums.tasks) {
      const task = row.task ?? 'default';
      addRow((sums.tasks[task] ??= emptySums(sums.knobs, Object.keys(sums.singles), false)), result);
    }
  }
}

export interface Point {
  accuracy: number;
  cost_usd: number;
}

export interface EvalReport {
  rows: number;
  mode: RouteMode;
  /** The artefact's default knob (the mean over folds in cross-validation). */
  default_knob: number;
  router: Point & { knob: number; models_per_prompt: number };
  best_single: Point & { model: string };
  /**
   * Router cost / best single's cost, accuracy difference and ratio, at the default knob; the
   * bar: accuracy ≥ `BAR_ACCURACY_SHARE` of the best single's at ≤ `BAR_COST_SHARE` of its cost.
   */
  vs_best_single: { cost_ratio: number; accuracy_delta: number; accuracy_ratio: number; meets_bar: boolean };
  /**
   * RouterBench's AIQ (aiq.ts) of the router's family (one point per calibrated λ, plus the curve
   * and the default) over [cheapest, dearest single model's cost] on the same rows.
   */
  aiq: number;
  /** The same for the "zero router" (the single models and their mixtures), for reference. */
  aiq_singles: number;
  /**
   * The router's held-out frontier (the hull AIQ integrates) and its accuracy at the bar's cost
   * (`BAR_COST_SHARE` of the best single's): the most any knob value could give there.
   */
  frontier: Point[];
  frontier_at_bar_cost: number;
  singles: Array<Point & { model: string }>;
  random: Point;
  oracle: Point;
  curve: Array<Point & { knob: number; models_per_prompt: number }>;
  /** The same figures per task, by `eval_name`. */
  tasks?: Array<Omit<EvalReport, 'tasks' | 'mode' | 'default_knob'> & { task: string }>;
}

/** Issue 18's bar: ≥ 98.5% of the best single model's accuracy at ≤ 40% of its cost. */
export const BAR_ACCURACY_SHARE = 0.985;
export const BAR_COST_SHARE = 0.4;

const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const r6 = (x: number): number => Number(x.toPrecision(6));

function figures(sums: EvalSums): Omit<EvalReport, 'tasks' | 'mode' | 'default_knob'> {
  const n = Math.max(1, sums.rows);
  const pt = (s: { correct: number; cost: number }): Point => ({ accuracy: r4(s.correct / n), cost_usd: r6(s.cost) });
  const singles = Object.entries(sums.singles).map(([model, s]) => ({ model, ...pt(s) }));
  const best = [...singles].sort((a, b) => b.accuracy - a.accuracy || a.cost_usd - b.cost_usd || a.model.localeCompare(b.model))[0] ?? { model: '', accuracy: 0, cost_usd: 0 };
  const curve = sums.knobs.map((knob, i) => {
    const s = sums.router[i] as Tally;
    return { knob, ...pt(s), models_per_prompt: r4(s.calls / n) };
  });
  const router = { knob: r4(sums.atDefault.knobSum / n), ...pt(sums.atDefault), models_per_prompt: r4(sums.atDefault.calls / n) };
  const ratio = best.cost_usd > 0 ? r4(router.cost_usd / best.cost_usd) : 0;
  const accuracyRatio = best.accuracy > 0 ? r4(router.accuracy / best.accuracy) : 0;
  const range = { min: Math.min(...singles.map((s) => s.cost_usd)), max: Math.max(...singles.map((s) => s.cost_usd)) };
  const asPoints = (ps: Point[]) => ps.map((p) => ({ cost: p.cost_usd, accuracy: p.accuracy }));
  const points = asPoints([...curve, router, ...sums.family.map((t) => pt(t))]);
  const hull = nonDecreasingHull(points);
  return {
    rows: sums.rows,
    router,
    best_single: best,
    vs_best_single: {
      cost_ratio: ratio,
      accuracy_delta: r4(router.accuracy - best.accuracy),
      accuracy_ratio: accuracyRatio,
      meets_bar: accuracyRatio >= BAR_ACCURACY_SHARE && ratio <= BAR_COST_SHARE,
    },
    aiq: r4(aiq(points, range)),
    aiq_singles: r4(aiq(asPoints(singles), range)),
    frontier: hull.map((p) => ({ accuracy: p.accuracy, cost_usd: p.cost })),
    frontier_at_bar_cost: r4(hullAt(hull, BAR_COST_SHARE * best.cost_usd)),
    singles,
    random: pt(sums.random),
    oracle: pt(sums.oracle),
    curve,
  };
}

/** Turns sums into the report, overall and per task. */
export function summarise(sums: EvalSums, mode: RouteMode): EvalReport {
  const all = figures(sums);
  const tasks = sums.tasks ? Object.keys(sums.tasks).sort().map((task) => ({ task, ...figures((sums.tasks as Record<string, EvalSums>)[task] as EvalSums) })) : undefined;
  return { mode, default_knob: all.router.knob, ...all, ...(tasks ? { tasks } : {}) };
}

/** Knobs of the curve (0, 0.1, …, 1 unless given). */
export function curveKnobs(knobs: number[] | undefined): number[] {
  const base = knobs ?? Array.from({ length: 11 }, (_, i) => i / 10);
  return [...new Set(base.map((k) => Math.round(k * 1e6) / 1e6))].sort((a, b) => a - b);
}

export function evaluate(artefact: RouterArtefact, rows: LabelledRow[], options: { knobs?: number[]; mode?: RouteMode } = {}): EvalReport {
  const mode = options.mode ?? artefact.defaults.mode;
  const sums = emptySums(curveKnobs(options.knobs), commonModels(rows));
  accumulate(sums, artefact, rows, mode);
  return summarise(sums, mode);
}
