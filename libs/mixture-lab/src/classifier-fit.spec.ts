import { existsSync } from 'node:fs';
import { classifyCategory, fitCategoryClassifier } from '@rosetta/mixture';
import { leaveOneOutAccuracy, loadMtBench } from './classifier-fit';

const MT_BENCH = '/work/shared/data/routing/mt-bench/question.jsonl';
const MT_BENCH_PATH = [MT_BENCH, `${__dirname}/../../../../shared/data/routing/mt-bench/question.jsonl`].find((p) => existsSync(p)) ?? MT_BENCH;

describe('category classifier', () => {
  const docs = loadMtBench(MT_BENCH_PATH);

  it('reads the 80 MT-Bench questions in 8 categories', () => {
    expect(docs).toHaveLength(80);
    expect(new Set(docs.map((d) => d.category)).size).toBe(8);
  });

  // 0.70 measured (α = 0.3, keyword weight 4, content words); chance is 0.125 and a majority guess 0.125. The bar
  // sits 0.1 under the measurement so that small, legitimate changes to tokenisation pass while a
  // broken classifier (or one that ignores the text) cannot.
  it('reaches ≥ 0.6 leave-one-out accuracy on MT-Bench', () => {
    expect(leaveOneOutAccuracy(docs)).toBeGreaterThanOrEqual(0.6);
  });

  it('generalises beyond the 80 questions through its keyword priors', () => {
    const params = fitCategoryClassifier(docs);
    expect(classifyCategory(params, 'Write a python function that merges two sorted arrays.').category).toBe('coding');
    expect(classifyCategory(params, 'Compute the integral of x^2 from 0 to 3 and solve the equation.').category).toBe('math');
    expect(classifyCategory(params, 'Extract the names and dates from the following text and return the results as JSON.').category).toBe('extraction');
    const r = classifyCategory(params, 'Pretend you are a pirate captain and greet your crew.');
    expect(r.category).toBe('roleplay');
    expect(r.confidence).toBeGreaterThan(0);
    expect(r.confidence).toBeLessThanOrEqual(1);
  });
});
