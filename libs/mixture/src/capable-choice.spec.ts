import { defaultArtefactPath, loadArtefact } from './artefact';
import { slackForKnob } from './capable-choice';
import { PROFILES } from './model-profiles';
import { decide } from './router';
import type { Candidate, ScoredCandidate } from './types';

const artefact = loadArtefact(defaultArtefactPath());
const DEFAULT_KNOB = artefact.defaults.knob;

/** Catalog prices (USD per token) of a cheap, a mid and a strong model. */
const LITE: Candidate = { id: 'rosetta/gemini-2.5-flash-lite', promptPrice: 0.1e-6, completionPrice: 0.4e-6 };
const MINI: Candidate = { id: 'rosetta/gpt-4o-mini', promptPrice: 0.15e-6, completionPrice: 0.6e-6 };
const SONNET: Candidate = { id: 'rosetta/claude-sonnet-4-5', promptPrice: 3e-6, completionPrice: 15e-6 };
const PRO: Candidate = { id: 'rosetta/gemini-2.5-pro', promptPrice: 1.25e-6, completionPrice: 10e-6 };
const O4: Candidate = { id: 'rosetta/o4-mini', promptPrice: 1.1e-6, completionPrice: 4.4e-6 };
const POOL = [LITE, MINI, SONNET, PRO, O4];

const PROOF = 'Prove that there are infinitely many primes of the form 4k+3.';
const REFACTOR = 'Implement a lock-free multi-producer multi-consumer queue in C++ with std::atomic and explain which memory orderings each operation needs.';

describe('slackForKnob', () => {
  it('is the table\'s slack at 0 and at the default knob, 0 at 1, and shrinks as the knob rises', () => {
    expect(slackForKnob(0, DEFAULT_KNOB)).toBeCloseTo(PROFILES.routing.slack_at_knob_0, 12);
    expect(slackForKnob(DEFAULT_KNOB, DEFAULT_KNOB)).toBeCloseTo(PROFILES.routing.slack_at_default_knob, 12);
    expect(slackForKnob(1, DEFAULT_KNOB)).toBe(0);
    const slacks = [0, 0.2, 0.4, DEFAULT_KNOB, 0.8, 0.95, 1].map((k) => slackForKnob(k, DEFAULT_KNOB));
    for (let i = 1; i < slacks.length; i++) expect(slacks[i] as number).toBeLessThan(slacks[i - 1] as number);
  });
});

describe('decide among catalog models: the cheapest capable one', () => {
  it('sends small talk and a simple fact to the cheapest model, and a proof or concurrent code to a strong one', () => {
    for (const text of ['Hello!', 'Hi', 'What is the capital of Australia?', 'Convert 26.2 miles to kilometers.']) {
      expect(decide({ text, candidates: POOL }, artefact).chosen).toBe(LITE.id);
    }
    expect(decide({ text: PROOF, candidates: POOL }, artefact).chosen).toBe(O4.id);
    expect(decide({ text: REFACTOR, candidates: POOL }, artefact).chosen).toBe(SONNET.id);
  });

  it('explains itself: scoring, threshold, difficulty cues, and each candidate\'s basis, source and capability', () => {
    const d = decide({ text: PROOF, candidates: POOL }, artefact);
    expect(d.scoring).toBe('capable');
    const best = Math.max(...d.candidates.map((c) => c.quality));
    expect(d.threshold).toBeCloseTo(best - slackForKnob(DEFAULT_KNOB, DEFAULT_KNOB), 3);
    for (const c of d.candidates) {
      expect(c).toEqual(expect.objectContaining({ basis: 'profile', source: expect.stringMatching(/^profile math: /), capable: c.quality >= (d.threshold as number) - 1e-9 }));
    }
    expect(d.signals.find((s) => s.name === 'difficulty')).toEqual(expect.objectContaining({ value: expect.any(Number), detail: expect.stringContaining('proof +1.5') }));
    expect(d.reasons[0]).toMatch(/^knob 0\.\d+ → slack 0\.03: capable = expected quality ≥/);
    expect(d.reasons[2]).toMatch(/^cheapest capable: rosetta\/o4-mini/);
  });

  it('orders capable candidates by cost, then the others by quality (the fallbacks)', () => {
    const d = decide({ text: PROOF, candidates: POOL }, artefact);
    const capable = d.candidates.filter((c) => c.capable);
    const others = d.candidates.filter((c) => !c.capable);
    expect(d.candidates).toEqual([...capable, ...others]);
    for (let i = 1; i < capable.length; i++) expect((capable[i] as ScoredCandidate).costUsd).toBeGreaterThanOrEqual((capable[i - 1] as ScoredCandidate).costUsd);
    for (let i = 1; i < others.length; i++) expect((others[i] as ScoredCandidate).quality).toBeLessThanOrEqual((others[i - 1] as ScoredCandidate).quality);
  });

  it('moves with the knob: knob 1 takes the best expected quality, knob 0 the cheapest within the widest slack', () => {
    const top = decide({ text: REFACTOR, candidates: POOL, knob: 1 }, artefact);
    expect(top.chosen).toBe([...top.candidates].sort((a, b) => b.quality - a.quality)[0]?.id);
    const frugal = decide({ text: REFACTOR, candidates: POOL, knob: 0 }, artefact);
    const best = Math.max(...frugal.candidates.map((c) => c.quality));
    const within = frugal.candidates.filter((c) => c.quality >= best - 0.15 - 1e-9).sort((a, b) => a.costUsd - b.costUsd);
    expect(frugal.chosen).toBe(within[0]?.id);
    expect(frugal.candidates.find((c) => c.id === frugal.chosen)?.costUsd).toBeLessThan(top.candidates.find((c) => c.id === top.chosen)?.costUsd as number);
  });
});

describe('operator priors', () => {
  const local = (quality: number): Candidate => ({ id: 'rosetta/local-llama', promptPrice: 0, completionPrice: 0, prior: { quality: { default: quality }, source: 'providers file' } });

  it('scores a model without a profile from its declared prior, and says so', () => {
    const d = decide({ text: 'Hello!', candidates: [...POOL, local(0.7)] }, artefact);
    expect(d.candidates.find((c) => c.id === 'rosetta/local-llama')).toEqual(expect.objectContaining({ basis: 'prior', source: 'prior (providers file) default', costUsd: 0 }));
  });

  it('a category figure of the prior wins over its default', () => {
    const prior = { quality: { default: 0.5, coding: 0.95 }, source: 'admin API' };
    const d = decide({ text: REFACTOR, candidates: [...POOL, { id: 'rosetta/coder', promptPrice: 1e-6, completionPrice: 1e-6, prior }] }, artefact);
    expect(d.candidates.find((c) => c.id === 'rosetta/coder')?.source).toBe('prior (admin API) coding');
  });

  it('leaves out a model with neither profile nor prior, and refuses when nothing is left', () => {
    const bare: Candidate = { id: 'rosetta/mystery', promptPrice: 0, completionPrice: 0 };
    const d = decide({ text: 'Hello!', candidates: [...POOL, bare] }, artefact);
    expect(d.candidates.map((c) => c.id)).not.toContain(bare.id);
    expect(d.excluded).toEqual([{ id: bare.id, reason: expect.stringContaining('router_prior') }]);
    expect(() => decide({ text: 'Hello!', candidates: [bare] }, artefact)).toThrow(/router_prior/);
  });

  it('a free model with a modest prior takes small talk but no hard prompt at any knob up to the default', () => {
    const free = local(0.6);
    expect(decide({ text: 'Thanks!', candidates: [...POOL, free], knob: 0.2 }, artefact).chosen).toBe(free.id);
    for (const knob of [0, 0.1, 0.2, 0.3, DEFAULT_KNOB]) {
      for (const text of [PROOF, REFACTOR]) expect(decide({ text, candidates: [...POOL, free], knob }, artefact).chosen).not.toBe(free.id);
    }
  });
});

describe('multiple choice in cascade mode', () => {
  const question = (stem: string) => `${stem}\nA) one\nB) two\nC) three\nD) four\nAnswer with a single letter.`;

  it('probes two cheap models first when the capable choice is not cheap, and answers alone when it is', () => {
    const harder = decide({ text: question('Which statement about the thermodynamics of this reaction is correct?'), candidates: POOL, mode: 'cascade' }, artefact);
    const alone = decide({ text: question('Which statement about the thermodynamics of this reaction is correct?'), candidates: POOL, mode: 'single' }, artefact);
    expect(alone.chosen).toBe(O4.id);
    expect(harder).toEqual(expect.objectContaining({ mode: 'cascade', chosen: LITE.id, plan: [LITE.id, MINI.id, O4.id] }));
    // A probe must not be hopeless: far from the best (beyond the knob-0 slack), it is not asked.
    const hardest = decide({ text: question('Prove which of the following bounds on the mixing time of this Markov chain is tight, and justify it step by step.'), candidates: POOL, mode: 'cascade' }, artefact);
    expect(hardest.mode).toBe('single');
    const easy = decide({ text: question('Which planet is largest?'), candidates: POOL, mode: 'cascade' }, artefact);
    expect(easy).toEqual(expect.objectContaining({ mode: 'single', chosen: LITE.id, plan: [LITE.id] }));
  });
});
