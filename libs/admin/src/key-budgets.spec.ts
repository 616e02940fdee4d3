import { GatewayError } from '@rosetta/canonical';
import { keyBudgetsOf } from './key-budgets';

function refusedParam(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error.param;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('keyBudgetsOf (budget_usd, end_user_budget_usd and their shared budget_period)', () => {
  it('sets either budget or both, over the one period', () => {
    expect(keyBudgetsOf({ budget_usd: 10, budget_period: 'month' })).toEqual({ budget: { usd: 10, period: 'month' }, endUserBudget: null });
    expect(keyBudgetsOf({ end_user_budget_usd: 0.5, budget_period: 'day' })).toEqual({ budget: null, endUserBudget: { usd: 0.5, period: 'day' } });
    expect(keyBudgetsOf({ budget_usd: 10, end_user_budget_usd: 1, budget_period: 'total' })).toEqual({ budget: { usd: 10, period: 'total' }, endUserBudget: { usd: 1, period: 'total' } });
    expect(keyBudgetsOf({})).toEqual({});
  });

  it('a change keeps what it does not name', () => {
    const current = { budget: { usd: 10, period: 'month' as const }, endUserBudget: null };
    expect(keyBudgetsOf({ end_user_budget_usd: 2 }, current)).toEqual({ budget: { usd: 10, period: 'month' }, endUserBudget: { usd: 2, period: 'month' } });
    expect(keyBudgetsOf({ budget_period: 'day' }, { budget: null, endUserBudget: { usd: 1, period: 'month' } })).toEqual({ budget: null, endUserBudget: { usd: 1, period: 'day' } });
    expect(keyBudgetsOf({ budget_usd: null }, current)).toEqual({ budget: null, endUserBudget: null });
    expect(keyBudgetsOf({ budget_usd: null, end_user_budget_usd: null, budget_period: null }, current)).toEqual({ budget: null, endUserBudget: null });
  });

  it('refuses an amount without a period, and a period without an amount', () => {
    expect(refusedParam(() => keyBudgetsOf({ end_user_budget_usd: 1 }))).toBe('budget_period');
    expect(refusedParam(() => keyBudgetsOf({ budget_period: 'day' }))).toBe('budget_usd');
    expect(refusedParam(() => keyBudgetsOf({ budget_period: null }, { budget: { usd: 1, period: 'day' }, endUserBudget: null }))).toBe('budget_period');
  });
});
