/**
 * End to end on the real shared RouterBench files: fit, then route held-out rows from the
 * recorded responses exactly as the live router would, and compare with the baselines.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { routingCeiling } from './ceiling';
import { evaluate } from './evaluate';
import { fitRouter } from './fit-router';
import { loadRouterBench } from './load-routerbench';
import { stratifiedFolds } from './rng';
import type { LabelledRow } from '@rosetta/mixture';

const DIRS = ['/work/shared/data/routing/routerbench', join(__dirname, '..', '..', '..', '..', 'shared', 'data', 'routing', 'routerbench')];
const DIR = DIRS.find((d) => existsSync(join(d, 'arc_challenge_train.csv'))) ?? (DIRS[0] as string);
const FILES = ['arc_challenge_train.csv', 'mbpp_train.csv', 'winograde_train.csv'].map((f) => join(DIR, f));

describe('router on the shared RouterBench split', () => {
  let rows: LabelledRow[];
  let train: LabelledRow[];
  let test: LabelledRow[];

  beforeAll(() => {
    rows = loadRouterBench(FILES);
    const folds = stratifiedFolds(rows, 3, (r) => r.task ?? '', 42);
    train = rows.filter((_, i) => folds[i] !== 0);
    test = rows.filter((_, i) => folds[i] === 0);
  });

  it('loads the three files (2,205 rows with all scores, 11 models)', () => {
    expect(rows).toHaveLength(2205);
    expect(Object.keys(rows[0]?.scores ?? {})).toHaveLength(11);
  });

  // Measured on this split (seed 42): router 0.868 at 38.9% of gpt-4's cost, gpt-4 0.893, random
  // 0.674; quality-first 0.890. This third is kind to gpt-4: over split seeds 42/1/2 the gap at the
  // default knob is 2.5/1.4/1.6 points at 38–39% of the cost (5-fold CV: README). The thresholds
  // leave room for that noise but fail if routing degrades toward random, toward always calling
  // the strongest model, overspends its budget, or stops using cascades.
  it('trained on two thirds of every file, beats random and comes within the measured bar on the rest', () => {
    const report = evaluate(fitRouter(train), test, { knobs: [1] });
    expect(report.router.accuracy).toBeGreaterThan(report.random.accuracy + 0.1);
    expect(report.router.accuracy).toBeGreaterThanOrEqual(report.best_single.accuracy - 0.04);
    expect(report.vs_best_single.cost_ratio).toBeLessThanOrEqual(0.42);
    expect(report.router.models_per_prompt).toBeGreaterThan(1);
    // Quality-first reaches the best single model's accuracy.
    const top = report.curve[report.curve.length - 1];
    expect(top?.accuracy).toBeGreaterThanOrEqual(report.best_single.accuracy - 0.01);
  });

  // Measured: 0.849 at 54% of gpt-4's cost: MBPP prompts resemble no training cluster, so they are
  // routed on global priors (to gpt-4), which the budget calibrated on two tasks did not foresee.
  it('trained on two of the files only, still beats random on held-out rows of all three', () => {
    const twoFiles = train.filter((r) => r.task !== 'mbpp');
    const report = evaluate(fitRouter(twoFiles), test, { knobs: [1] });
    expect(report.router.accuracy).toBeGreaterThan(report.random.accuracy + 0.1);
    expect(report.vs_best_single.cost_ratio).toBeLessThan(0.65);
  });

  // docs/decisions/0004: even a policy chosen with the labels in hand, reading up to three answers
  // per prompt, cannot reach gpt-4's accuracy at 40% of its cost on these rows (0.870 at 40%; it
  // needs 63%). If the ceiling starts reading code text or misses states, these numbers move.
  it('has an in-sample routing ceiling below the issue\'s bar', () => {
    const c = routingCeiling(rows, { depth: 3 });
    expect(c.strongest.model).toBe('gpt-4-1106-preview');
    expect(c.at_cost_share.accuracy).toBeGreaterThan(0.86);
    expect(c.at_cost_share.accuracy).toBeLessThan(c.strongest.accuracy);
    expect(c.cost_share_at_strongest_accuracy).toBeGreaterThan(0.55);
    const mbpp = c.tasks.find((t) => t.task === 'mbpp');
    // No text reading: MBPP's ceiling at a tenth of gpt-4's cost stays far below its oracle (0.87).
    expect(mbpp?.frontier.filter((p) => p.cost_usd < 0.28).every((p) => p.accuracy < 0.66)).toBe(true);
  });
});
