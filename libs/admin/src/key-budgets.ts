import type { ApiKeyRecord, Budget, BudgetPeriod } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';

/** The budget fields of a key's create or change, as the admin API takes them. */
export interface KeyBudgetFields {
  budget_usd?: number | null;
  end_user_budget_usd?: number | null;
  budget_period?: string | null;
}

/**
 * A key's own budget and its per-end-user budget (decision 0033) share one `budget_period`: each
 * amount with the period sets that budget, null removes it, and the period goes with whichever
 * amounts remain. Undefined: the field was not given (a change leaves the budgets as they are).
 */
export function keyBudgetsOf(fields: KeyBudgetFields, current?: Pick<ApiKeyRecord, 'budget' | 'endUserBudget'>): { budget?: Budget | null; endUserBudget?: Budget | null } {
  const { budget_usd: keyUsd, end_user_budget_usd: userUsd, budget_period: period } = fields;
  if (keyUsd === undefined && userUsd === undefined && period === undefined) return {};
  const key = keyUsd !== undefined ? keyUsd : (current?.budget?.usd ?? null);
  const user = userUsd !== undefined ? userUsd : (current?.endUserBudget?.usd ?? null);
  const every = (period !== undefined ? period : (current?.budget?.period ?? current?.endUserBudget?.period ?? null)) as BudgetPeriod | null;
  if (key === null && user === null) {
    if (period) throw GatewayError.invalidRequest('budget_period needs a budget_usd or an end_user_budget_usd', 'budget_usd');
    return { budget: null, endUserBudget: null };
  }
  if (!every) throw GatewayError.invalidRequest("budget_usd and end_user_budget_usd need a budget_period: 'day', 'month' (UTC) or 'total'", 'budget_period');
  return { budget: key === null ? null : { usd: key, period: every }, endUserBudget: user === null ? null : { usd: user, period: every } };
}
