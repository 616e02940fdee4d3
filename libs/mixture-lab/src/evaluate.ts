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

/** Sums over rows, so folds can be added up. */
export interface EvalSums {
  rows: number;
  knobs: number[];
  router: Array<{ correct: number; cost: number; calls: number }>;
  /** Each artefact's own default knob (one per fold in cross-validation), rows-weighted. */
  atDefault: { correct: number; cost: number; calls: number; knobSum: number };
  singles: Record<string, { correct: number; cost: number }>;
  random: { correct: number; cost: number };
  oracle: { correct: number; cost: number };
}

export function emptySums(knobs: number[], models: string[]): EvalSums {
  const singles: EvalSums['singles'] = {};
  for (const m of models) singles[m] = { correct: 0, cost: 0 };
  return {
    rows: 0,
    knobs,
    router: knobs.map(() => ({ correct: 0, cost: 0, calls: 0 })),
    atDefault: { correct: 0, cost: 0, calls: 0, knobSum: 0 },
    singles,
    random: { correct: 0, cost: 0 },
    oracle: { correct: 0, cost: 0 },
  };
}

/** Adds the outcomes of `rows` (routed with `artefact`) to `sums`. */
export function accumulate(sums: EvalSums, artefact: RouterArtefact, rows: LabelledRow[], mode: RouteMode): void {
  const models = Object.keys(sums.singles).filter((m) => artefact.models.includes(m));
  for (const row of rows) {
    sums.rows++;
    // Signals do not depend on the knob: extracted once per prompt, as the live path does.
    const signals = extractSignals({ text: row.prompt }, { classifier: artefact.classifier });
    const add = (acc: { correct: number; cost: number; calls: number }, o: RowOutcome): void => {
      acc.correct += o.correct;
      acc.cost += o.cost;
      acc.calls += o.calls;
    };
    sums.knobs.forEach((k, i) => add(sums.router[i] as { correct: number; cost: number; calls: number }, routeRow(artefact, row, k, mode, models, signals)));
    const knob = defaultKnobFor(artefact, mode);
    add(sums.atDefault, routeRow(artefact, row, knob, mode, models, signals));
    sums.atDefault.knobSum += knob;
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
  /** Router cost / best single's cost and accuracy difference, at the default knob. */
  vs_best_single: { cost_ratio: number; accuracy_delta: number; meets_bar: boolean };
  singles: Array<Point & { model: string }>;
  random: Point;
  oracle: Point;
  curve: Array<Point & { knob: number; models_per_prompt: number }>;
}

const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const r6 = (x: number): number => Number(x.toPrecision(6));

/** Turns sums into the report; the bar: accuracy ≥ best single's at ≤ 40% of its cost. */
export function summarise(sums: EvalSums, mode: RouteMode): EvalReport {
  const n = Math.max(1, sums.rows);
  const pt = (s: { correct: number; cost: number }): Point => ({ accuracy: r4(s.correct / n), cost_usd: r6(s.cost) });
  const singles = Object.entries(sums.singles).map(([model, s]) => ({ model, ...pt(s) }));
  const best = [...singles].sort((a, b) => b.accuracy - a.accuracy || a.cost_usd - b.cost_usd || a.model.localeCompare(b.model))[0] ?? { model: '', accuracy: 0, cost_usd: 0 };
  const curve = sums.knobs.map((knob, i) => {
    const s = sums.router[i] as { correct: number; cost: number; calls: number };
    return { knob, ...pt(s), models_per_prompt: r4(s.calls / n) };
  });
  const defaultKnob = r4(sums.atDefault.knobSum / n);
  const router = { knob: defaultKnob, ...pt(sums.atDefault), models_per_prompt: r4(sums.atDefault.calls / n) };
  const ratio = best.cost_usd > 0 ? r4(router.cost_usd / best.cost_usd) : 0;
  const delta = r4(router.accuracy - best.accuracy);
  return {
    rows: sums.rows,
    mode,
    default_knob: defaultKnob,
    router,
    best_single: best,
    vs_best_single: { cost_ratio: ratio, accuracy_delta: delta, meets_bar: delta >= 0 && ratio <= 0.4 },
    singles,
    random: pt(sums.random),
    oracle: pt(sums.oracle),
    curve,
  };
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
