import { defaultArtefactPath, loadArtefact } from './artefact';
import { classifyCategory, contentHashes, fitCategoryClassifier } from './category-classifier';

// Fitting on MT-Bench and its accuracy are tested in @rosetta/mixture-lab (classifier-fit.spec.ts);
// this is the fit the live signals fall back on when they have no artefact.
describe('category classifier without training questions', () => {
  it('works with keyword priors alone', () => {
    const params = fitCategoryClassifier([]);
    expect(classifyCategory(params, 'Write a python function to sort a list').category).toBe('coding');
  });
});

describe('category classifier and task-neutral filler', () => {
  const plain = 'Prove that the square root of 2 is irrational.';
  const reworded = [
    'Prove that the square root of 2 is irrational, step by step.',
    'Prove that the square root of 2 is irrational. Explain your reasoning.',
    "Let's think step by step. Prove that the square root of 2 is irrational.",
    'You are a helpful assistant. Prove that the square root of 2 is irrational. Thanks in advance!',
    'PROVE THAT THE SQUARE ROOT OF 2 IS IRRATIONAL',
  ];

  it('reads past filler: a task worded with "step by step", a persona or thanks has the features of the plain task', () => {
    const features = (text: string) => [...contentHashes(text)];
    expect(reworded.map(features)).toEqual(reworded.map(() => features(plain)));
  });

  it('gives the shipped artefact\'s category of the plain proof (maths) to every rewording, "step by step" included', () => {
    const params = loadArtefact(defaultArtefactPath()).classifier;
    expect([plain, ...reworded].map((t) => classifyCategory(params, t).category)).toEqual([plain, ...reworded].map(() => 'math'));
  });

  it('keeps what filler phrases do not cover: a step of a process is still a word', () => {
    expect(contentHashes('Describe the next step of mitosis.')).not.toEqual(contentHashes('Describe the next of mitosis.'));
  });
});
