import { routingCeiling } from './ceiling';
import type { LabelledRow } from '@rosetta/mixture';

const QUIZ = 'Which is right?\nA) one\nB) two\nC) three\nD) four\nAnswer:';
const CODE = 'Write a python function to reverse a list.';

function row(prompt: string, cheap: { ok: 0 | 1; says: string }, strong: { ok: 0 | 1; says: string }): LabelledRow {
  return {
    prompt,
    task: prompt === QUIZ ? 'quiz' : 'code',
    scores: { cheap: cheap.ok, strong: strong.ok },
    costs: { cheap: 1, strong: 10 },
    responses: { cheap: cheap.says, strong: strong.says },
  };
}

describe('routingCeiling', () => {
  it('finds the cascade that escalates exactly the states where the cheap answer is wrong', () => {
    // The cheap model answers A when right and B when wrong: its letter alone tells them apart.
    const rows = [
      row(QUIZ, { ok: 1, says: 'A' }, { ok: 1, says: 'A' }),
      row(QUIZ, { ok: 1, says: 'A' }, { ok: 1, says: 'A' }),
      row(QUIZ, { ok: 1, says: 'A' }, { ok: 1, says: 'A' }),
      row(QUIZ, { ok: 0, says: 'B' }, { ok: 1, says: 'C' }),
    ];
    const r = routingCeiling(rows, { depth: 2 });
    expect(r.strongest).toEqual({ model: 'strong', accuracy: 1, cost_usd: 40 });
    // call cheap on all four (4), strong on the B row (10): every answer right at 14 of 40
    expect(r.cost_share_at_strongest_accuracy).toBe(0.35);
    expect(r.frontier).toEqual([
      { cost_usd: 4, correct: 3, accuracy: 0.75 },
      { cost_usd: 14, correct: 4, accuracy: 1 },
    ]);
    expect(r.at_cost_share).toEqual({ cost_share: 0.4, cost_usd: 16, accuracy: 1 });
  });

  it('interpolates the hull below its cheapest full-accuracy point', () => {
    const rows = [row(QUIZ, { ok: 1, says: 'A' }, { ok: 1, says: 'A' }), row(QUIZ, { ok: 0, says: 'B' }, { ok: 1, says: 'C' })];
    // cheap only: 1 of 2 at 2; cheap then strong on B: 2 of 2 at 12; at 40% of 20 = 8 → 1 + 6/10
    expect(routingCeiling(rows, { depth: 2 }).at_cost_share.accuracy).toBe(0.8);
  });

  it('reads code answers only through agreement, never through their text', () => {
    // Different code on each row: a router that could read which code is right would escalate one
    // row only (cost 12 of 20). One model's code agrees with nothing, so the rows stay together.
    const rows = [
      row(CODE, { ok: 1, says: '```python\ndef rev(x):\n    return x[::-1]\n```' }, { ok: 1, says: '```python\ndef r(a):\n    return list(reversed(a))\n```' }),
      row(CODE, { ok: 0, says: '```python\ndef rev(x):\n    return x\n```' }, { ok: 1, says: '```python\ndef r(a):\n    return a[::-1]\n```' }),
    ];
    const r = routingCeiling(rows, { depth: 2 });
    expect(r.cost_share_at_strongest_accuracy).toBe(1);
    expect(r.frontier.map((p) => p.cost_usd)).toEqual([2, 20]);
  });

  it('refuses a depth below one and empty input', () => {
    expect(() => routingCeiling([row(QUIZ, { ok: 1, says: 'A' }, { ok: 1, says: 'A' })], { depth: 0 })).toThrow('depth');
    expect(() => routingCeiling([])).toThrow('no labelled rows');
  });
});
