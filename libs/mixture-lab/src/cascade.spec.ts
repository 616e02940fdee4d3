import { type RouterArtefact, decide, decideCascadeStep } from '@rosetta/mixture';
import { SYNTH_MODELS, syntheticRows } from './__fixtures__/synthetic';
import { routeRow } from './evaluate';
import { fitRouter } from './fit-router';

describe('decideCascadeStep', () => {
  let artefact: RouterArtefact;
  beforeAll(() => {
    artefact = fitRouter(syntheticRows(120));
  });
  const mc = 'Which statement about rocks is true? (question 3)\nA) one\nB) two\nC) three\nD) four\nAnswer:';

  it('without fitted statistics: accepts when two answers agree, escalates otherwise', () => {
    const plan = ['x', 'y', 'z'];
    const text = 'Pick one:\nA) red\nB) blue\nC) green';
    expect(decideCascadeStep({ text, plan, responses: [] }, artefact)).toMatchObject({ action: 'call', model: 'x' });
    expect(decideCascadeStep({ text, plan, responses: [{ model: 'x', text: 'B' }] }, artefact)).toMatchObject({ action: 'call', model: 'y' });
    const agree = decideCascadeStep({ text, plan, responses: [{ model: 'x', text: 'B' }, { model: 'y', text: 'The answer is B' }] }, artefact);
    expect(agree).toMatchObject({ action: 'accept', model: 'x', answer: 'B' });
    const disagree = [{ model: 'x', text: 'B' }, { model: 'y', text: 'C' }];
    expect(decideCascadeStep({ text, plan, responses: disagree }, artefact)).toMatchObject({ action: 'call', model: 'z' });
    expect(decideCascadeStep({ text, plan, responses: [...disagree, { model: 'z', text: 'A' }] }, artefact)).toMatchObject({ action: 'accept', model: 'z', answer: 'A' });
  });

  it('with a fitted plan: accepts an answer the statistics trust, escalates one they do not', () => {
    const d = decide({ text: mc, candidates: SYNTH_MODELS.map((id) => ({ id })), knob: 0.5, mode: 'cascade' }, artefact);
    expect(d.mode).toBe('cascade');
    const first = d.plan[0] as string;
    // In the fixture a cheap "A" is always right and any other letter always wrong.
    const trusted = decideCascadeStep({ text: mc, plan: d.plan, responses: [{ model: first, text: 'A' }], knob: 0.5 }, artefact);
    expect(trusted).toMatchObject({ action: 'accept', model: first, answer: 'A' });
    const doubtful = decideCascadeStep({ text: mc, plan: d.plan, responses: [{ model: first, text: 'C' }], knob: 0.5 }, artefact);
    expect(doubtful.action).toBe('call');
    expect(d.plan.slice(1)).toContain(doubtful.action === 'call' ? doubtful.model : '');
    expect(doubtful.reasons.join(' ')).toMatch(/P\(accept correct\)/);
  });

  it('charges every model a cascade activates in the offline evaluation', () => {
    const row = {
      prompt: mc,
      task: 'quiz',
      scores: { cheap: 0 as const, mid: 1 as const, strong: 1 as const },
      costs: { cheap: 0.0001, mid: 0.001, strong: 0.01 },
      responses: { cheap: 'C', mid: 'A', strong: 'A' },
    };
    const out = routeRow(artefact, row, 0.5, 'cascade', SYNTH_MODELS);
    expect(out.correct).toBe(1);
    expect(out.calls).toBeGreaterThanOrEqual(2);
    const d = decide({ text: mc, candidates: SYNTH_MODELS.map((id) => ({ id })), knob: 0.5, mode: 'cascade' }, artefact);
    const called = d.plan.slice(0, out.calls);
    expect(out.cost).toBeCloseTo(called.reduce((s, m) => s + (row.costs[m as keyof typeof row.costs] ?? 0), 0), 10);
  });
});
