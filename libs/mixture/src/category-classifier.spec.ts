import { classifyCategory, fitCategoryClassifier } from './category-classifier';

// Fitting on MT-Bench and its accuracy are tested in @rosetta/mixture-lab (classifier-fit.spec.ts);
// this is the fit the live signals fall back on when they have no artefact.
describe('category classifier without training questions', () => {
  it('works with keyword priors alone', () => {
    const params = fitCategoryClassifier([]);
    expect(classifyCategory(params, 'Write a python function to sort a list').category).toBe('coding');
  });
});
