import { SYNTH_MODELS, syntheticRows } from './__fixtures__/synthetic';
import { aiq, hullAt } from './aiq';
import { evaluate } from './evaluate';
import { fitRouter } from './fit-router';

describe('evaluate: figures overall and per task', () => {
  const rows = syntheticRows(60, 3);
  const report = evaluate(fitRouter(syntheticRows(120)), rows, { knobs: [0, 0.5, 1] });

  it('reports each task with its own rows, baselines and curve, adding up to the whole', () => {
    expect(report.tasks?.map((t) => [t.task, t.rows])).toEqual([
      ['code', 60],
      ['quiz', 60],
    ]);
    const tasks = report.tasks ?? [];
    const strong = (t: { singles: Array<{ model: string; cost_usd: number }> }) => t.singles.find((s) => s.model === 'strong')?.cost_usd ?? 0;
    expect(tasks.reduce((s, t) => s + strong(t), 0)).toBeCloseTo(strong(report), 4);
    expect(tasks.reduce((s, t) => s + t.router.accuracy * t.rows, 0) / report.rows).toBeCloseTo(report.router.accuracy, 3);
    for (const t of tasks) {
      expect(t.curve.map((p) => p.knob)).toEqual([0, 0.5, 1]);
      expect(t.singles.map((s) => s.model).sort()).toEqual([...SYNTH_MODELS].sort());
    }
  });

  it('computes AIQ from the curve over the single models\' cost range, and the bar from the accuracy ratio', () => {
    const costs = report.singles.map((s) => s.cost_usd);
    const range = { min: Math.min(...costs), max: Math.max(...costs) };
    // The frontier is the hull of every held-out point (the curve's, the default's and one per
    // calibrated λ); AIQ integrates it, and no point of the curve lies above it.
    const frontier = report.frontier.map((p) => ({ cost: p.cost_usd, accuracy: p.accuracy }));
    expect(report.aiq).toBeCloseTo(aiq(frontier, range), 4);
    for (const p of [...report.curve, report.router]) expect(hullAt(frontier, p.cost_usd)).toBeGreaterThanOrEqual(p.accuracy - 1e-9);
    const barCost = 0.4 * report.best_single.cost_usd;
    expect(report.frontier_at_bar_cost).toBeCloseTo(hullAt(frontier, barCost), 4);
    expect(report.aiq_singles).toBeCloseTo(aiq(report.singles.map((s) => ({ cost: s.cost_usd, accuracy: s.accuracy })), range), 4);
    const v = report.vs_best_single;
    expect(v.accuracy_ratio).toBeCloseTo(report.router.accuracy / report.best_single.accuracy, 3);
    expect(v.meets_bar).toBe(v.accuracy_ratio >= 0.985 && v.cost_ratio <= 0.4);
  });
});
