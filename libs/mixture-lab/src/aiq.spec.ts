import { aiq, nonDecreasingHull } from './aiq';

describe('AIQ (RouterBench)', () => {
  it('keeps the upper concave hull up to its most accurate point', () => {
    const points = [
      { cost: 1, accuracy: 0.5 },
      { cost: 2, accuracy: 0.55 }, // under the segment (1, 0.5)–(3, 0.8)
      { cost: 3, accuracy: 0.8 },
      { cost: 3, accuracy: 0.7 }, // same cost, less accurate
      { cost: 4, accuracy: 0.85 },
      { cost: 6, accuracy: 0.84 }, // costs more for less: not on the non-decreasing hull
    ];
    expect(nonDecreasingHull(points)).toEqual([
      { cost: 1, accuracy: 0.5 },
      { cost: 3, accuracy: 0.8 },
      { cost: 4, accuracy: 0.85 },
    ]);
  });

  it('integrates the hull over the range, flat beyond its last point and 0 before its first', () => {
    // One point at cost 0 with accuracy 0.8: the hull is 0.8 over the whole range.
    expect(aiq([{ cost: 0, accuracy: 0.8 }], { min: 0, max: 10 })).toBeCloseTo(0.8, 12);
    // (0, 0.4) → (4, 0.8), flat to 10: area 4·0.6 + 6·0.8 = 7.2 over a width of 10.
    expect(aiq([{ cost: 0, accuracy: 0.4 }, { cost: 4, accuracy: 0.8 }], { min: 0, max: 10 })).toBeCloseTo(0.72, 12);
    // Nothing reachable below cost 5: half the range counts as 0.
    expect(aiq([{ cost: 5, accuracy: 0.6 }], { min: 0, max: 10 })).toBeCloseTo(0.3, 12);
    // A range that starts inside a segment: (0, 0.4) → (4, 0.8) seen from 2 to 4 averages 0.7.
    expect(aiq([{ cost: 0, accuracy: 0.4 }, { cost: 4, accuracy: 0.8 }], { min: 2, max: 4 })).toBeCloseTo(0.7, 12);
  });

  it('rewards a router that is more accurate at equal cost, and ignores points below the hull', () => {
    const base = [{ cost: 1, accuracy: 0.6 }, { cost: 10, accuracy: 0.9 }];
    const better = [{ cost: 1, accuracy: 0.6 }, { cost: 4, accuracy: 0.88 }, { cost: 10, accuracy: 0.9 }];
    const range = { min: 1, max: 10 };
    expect(aiq(better, range)).toBeGreaterThan(aiq(base, range));
    expect(aiq([...base, { cost: 5, accuracy: 0.6 }], range)).toBeCloseTo(aiq(base, range), 12);
    expect(aiq([], range)).toBe(0);
  });
});
