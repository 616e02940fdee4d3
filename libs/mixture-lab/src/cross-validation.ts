/** k-fold cross-validation of the whole router (fit on k−1 folds, route the held-out fold). */
import { fitRouter, type FitOptions } from './fit-router';
import { type EvalReport, accumulate, curveKnobs, emptySums, summarise } from './evaluate';
import { commonModels } from './load-routerbench';
import { stratifiedFolds } from './rng';
import type { LabelledRow, RouteMode } from '@rosetta/mixture';

export interface CrossValidationOptions {
  k: number;
  seed?: number;
  knobs?: number[];
  mode?: RouteMode;
  fit?: FitOptions;
}

export const DEFAULT_CV_SEED = 20240611;

/** Folds stratified by task; sums over all held-out rows (each row is evaluated exactly once). */
export function crossValidate(rows: LabelledRow[], options: CrossValidationOptions): EvalReport {
  if (options.k < 2) throw new Error('cross-validation needs k ≥ 2');
  const folds = stratifiedFolds(rows, options.k, (r) => r.task ?? 'default', options.seed ?? DEFAULT_CV_SEED);
  let mode: RouteMode | undefined = options.mode;
  let sums: ReturnType<typeof emptySums> | undefined;
  for (let f = 0; f < options.k; f++) {
    const train = rows.filter((_, i) => folds[i] !== f);
    const test = rows.filter((_, i) => folds[i] === f);
    if (test.length === 0) continue;
    const artefact = fitRouter(train, options.fit);
    mode ??= artefact.defaults.mode;
    sums ??= emptySums(curveKnobs(options.knobs), commonModels(rows));
    accumulate(sums, artefact, test, mode);
  }
  if (!sums || mode === undefined) throw new Error('cross-validation: no rows');
  return summarise(sums, mode);
}
