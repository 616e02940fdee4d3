import type { Budget } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { toUsd, type PeriodWindow } from './budget-period';
import type { BudgetScope } from './budget.service';

const PERIOD_WORDS: Record<Budget['period'], string> = { day: 'daily', month: 'monthly', total: 'total' };

const PARAMS: Record<BudgetScope['kind'], string> = { key: 'key.budget', team: 'team.budget', end_user: 'key.end_user_budget' };

function usd(value: number): string {
  return `$${value.toFixed(value < 1 ? 4 : 2)}`;
}

/** Who the budget is: `key 'name'`, `team 'name'`, or `end user 'alice' of key 'name'`. */
function holder(scope: BudgetScope): string {
  if (scope.endUser) return `end user ${JSON.stringify(scope.endUser.name)} of key '${scope.name}'`;
  return `${scope.kind} '${scope.name}'`;
}

/** The 402 `budget_exceeded` naming the budget, what it has used, what the request might cost, and when it resets. */
export function budgetExceeded(scope: BudgetScope, window: PeriodWindow, used: number, amount: number, outputUncapped: boolean): GatewayError {
  const resets = window.resetsAt ? `it resets at ${window.resetsAt.toISOString()}` : 'it does not reset';
  // Without max_tokens a request holds the model's whole output limit: usually most of the hold.
  const lower = outputUncapped ? " (set max_tokens to hold less: without it the request holds the model's whole output limit)" : '';
  const kind = scope.kind === 'end_user' ? 'end-user budget' : 'budget';
  return new GatewayError(
    'budget_exceeded',
    `Budget exceeded: ${holder(scope)} has used ${usd(toUsd(used))} of its ${usd(scope.budget.usd)} ${PERIOD_WORDS[scope.budget.period]} ${kind} and this request may cost up to ${usd(toUsd(amount))}${lower}; ${resets}`,
    { code: 'budget_exceeded', param: PARAMS[scope.kind] },
  );
}
