import { type RouterArtefact, type ScoredCandidate, compareCandidates, decide, lambdaForKnob } from '@rosetta/mixture';
import { SYNTH_MODELS, syntheticRows } from './__fixtures__/synthetic';
import { fitRouter } from './fit-router';

const candidates = SYNTH_MODELS.map((id) => ({ id }));
const prompts = [
  'Which statement about magnets is true? (question 7)\nA) one\nB) two\nC) three\nD) four\nAnswer:',
  'Write a python function to count vowels (variant 3).',
  'Tell me something nice.',
];
let artefact: RouterArtefact;

beforeAll(() => {
  artefact = fitRouter(syntheticRows(120));
});

describe('decide: determinism, ties, knob', () => {
  it('is deterministic, also for a reloaded copy of the artefact', () => {
    const copy = JSON.parse(JSON.stringify(artefact)) as RouterArtefact;
    for (const text of prompts) {
      const a = decide({ text, candidates, knob: 0.5 }, artefact);
      expect(decide({ text, candidates, knob: 0.5 }, artefact)).toEqual(a);
      expect(decide({ text, candidates: [...candidates].reverse(), knob: 0.5 }, copy)).toEqual(a);
    }
  });

  it('breaks ties by higher quality, then lower cost, then id', () => {
    const c = (id: string, quality: number, costUsd: number, score: number): ScoredCandidate => ({ id, quality, costUsd, score, basis: 'fitted' });
    const sorted = [c('z', 0.5, 1, 0.4), c('b', 0.6, 2, 0.4), c('a', 0.5, 1, 0.4), c('y', 0.5, 0.5, 0.4), c('top', 0.1, 0, 0.9)].sort(compareCandidates);
    expect(sorted.map((x) => x.id)).toEqual(['top', 'b', 'y', 'a', 'z']);
    // Two catalog models with the same declared prior and equal prices: identical scores, the id decides.
    const prior = { quality: { default: 0.8 }, source: 'providers file' };
    const twins = [{ id: 'rosetta/twin-b', promptPrice: 1e-6, completionPrice: 2e-6, prior }, { id: 'rosetta/twin-a', promptPrice: 1e-6, completionPrice: 2e-6, prior }];
    const d = decide({ text: 'Hello there', candidates: twins, mode: 'single' }, artefact);
    expect(d.chosen).toBe('rosetta/twin-a');
    expect(decide({ text: 'Hello there', candidates: [...twins].reverse(), mode: 'single' }, artefact).chosen).toBe('rosetta/twin-a');
  });

  it('maps a higher knob to a lower λ', () => {
    const { lambdas, knobs } = artefact.single;
    const ls = [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1].map((k) => lambdaForKnob(lambdas, knobs, k));
    for (let i = 1; i < ls.length; i++) expect(ls[i] as number).toBeLessThanOrEqual(ls[i - 1] as number);
    expect(ls[ls.length - 1]).toBe(0);
  });

  it('never lowers expected quality or cost when the knob goes up (single mode)', () => {
    for (const text of prompts) {
      let prev: ScoredCandidate | undefined;
      for (let k = 0; k <= 1.0001; k += 0.05) {
        const d = decide({ text, candidates, knob: k, mode: 'single' }, artefact);
        const chosen = d.candidates.find((c) => c.id === d.chosen) as ScoredCandidate;
        if (prev) {
          expect(chosen.quality).toBeGreaterThanOrEqual(prev.quality);
          expect(chosen.costUsd).toBeGreaterThanOrEqual(prev.costUsd);
        }
        prev = chosen;
      }
    }
    expect(decide({ text: prompts[0] as string, candidates, knob: 0, mode: 'single' }, artefact).chosen).toBe('cheap');
    expect(decide({ text: prompts[0] as string, candidates, knob: 1, mode: 'single' }, artefact).chosen).toBe('strong');
  });

  it('moves along the fitted cascade curve monotonically', () => {
    const { knobs, accuracy, costUsd } = artefact.cascade.curve;
    for (let i = 1; i < knobs.length; i++) {
      expect(knobs[i] as number).toBeLessThan(knobs[i - 1] as number);
      expect(costUsd[i] as number).toBeLessThanOrEqual((costUsd[i - 1] as number) + 1e-12);
      expect(accuracy[i] as number).toBeLessThanOrEqual((accuracy[i - 1] as number) + 1e-12);
    }
  });

});

// Catalog models (profiles, declared priors) are chosen by capable-choice.ts: @rosetta/mixture's spec.
describe('decide: cascades, errors', () => {
  it('returns a cascade plan from the fitted policy where it pays', () => {
    const d = decide({ text: prompts[0] as string, candidates, knob: 0.5, mode: 'cascade' }, artefact);
    expect(d.mode).toBe('cascade');
    expect(d.plan.length).toBeGreaterThan(1);
    expect(d.chosen).toBe(d.plan[0]);
    expect(d.plan[0]).toBe('cheap');
  });

  it('rejects an empty candidate list', () => {
    expect(() => decide({ text: 'x', candidates: [] }, artefact)).toThrow(/no candidates/);
  });
});
