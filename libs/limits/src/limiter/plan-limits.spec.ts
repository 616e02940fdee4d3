import { DEFAULT_PLANS, resolveLimits } from './plan-limits';

const key = (plan: string, rpm: number | null = null, tpm: number | null = null) => ({ plan, rpm, tpm });

describe('resolveLimits', () => {
  it("takes the plan's values when the key has none", () => {
    expect(resolveLimits(key('free'), { rpm: 100, tpm: 10_000 })).toEqual({ rpm: 100, tpm: 10_000 });
    expect(resolveLimits(key('pro'), { rpm: 1_000, tpm: 100_000 })).toEqual({ rpm: 1_000, tpm: 100_000 });
  });

  it('lets per-key values override the plan, each on its own', () => {
    expect(resolveLimits(key('free', 5), { rpm: 100, tpm: 10_000 })).toEqual({ rpm: 5, tpm: 10_000 });
    expect(resolveLimits(key('free', null, 50_000), { rpm: 100, tpm: 10_000 })).toEqual({ rpm: 100, tpm: 50_000 });
    expect(resolveLimits(key('enterprise', 20_000, 5_000_000), { rpm: null, tpm: null })).toEqual({ rpm: 20_000, tpm: 5_000_000 });
    expect(resolveLimits(key('free', 0, 0), { rpm: 100, tpm: 10_000 })).toEqual({ rpm: 0, tpm: 0 });
  });

  it('treats null as unlimited', () => {
    expect(resolveLimits(key('enterprise'), { rpm: null, tpm: null })).toEqual({ rpm: null, tpm: null });
    expect(resolveLimits(key('enterprise', 10), { rpm: null, tpm: null })).toEqual({ rpm: 10, tpm: null });
  });

  it('falls back safely when the plan is missing: built-in tier defaults, else free', () => {
    expect(resolveLimits(key('free'))).toEqual({ rpm: 100, tpm: 10_000 });
    expect(resolveLimits(key('pro'))).toEqual({ rpm: 1_000, tpm: 100_000 });
    expect(resolveLimits(key('enterprise', 7, 70))).toEqual({ rpm: 7, tpm: 70 });
    expect(resolveLimits(key('deleted-plan'))).toEqual(DEFAULT_PLANS.free);
    expect(resolveLimits(key('toString'))).toEqual(DEFAULT_PLANS.free);
    expect(resolveLimits(key('deleted-plan', 3))).toEqual({ rpm: 3, tpm: 10_000 });
  });

  it('ignores invalid per-key values and never turns a bad plan value into unlimited', () => {
    expect(resolveLimits(key('free', -1, Number.NaN), { rpm: 100, tpm: 10_000 })).toEqual({ rpm: 100, tpm: 10_000 });
    expect(resolveLimits(key('odd'), { rpm: -5, tpm: Number.POSITIVE_INFINITY })).toEqual({ rpm: 0, tpm: 0 });
    expect(resolveLimits(key('free', 2.9), { rpm: 10.5, tpm: 99.9 })).toEqual({ rpm: 2, tpm: 99 });
  });
});
