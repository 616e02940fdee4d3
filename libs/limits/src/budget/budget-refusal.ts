import type { Budget } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { toUsd, type PeriodWindow } from './budget-period';
import type { BudgetScope } from './budget.service';

const PERIOD_WORDS: Record<Budget['period'], string> = { day: 'daily', month: 'monthly', total: 'total' };

function usd(value: number): string {
  return `$${value.toFixed(value < 1 ? 4 : 2)}`;
}

/** The 402 `budget_exceeded` naming the budget, what it has used and when it resets. */
export function budgetExceeded(scope: BudgetScope, window: PeriodWindow, used: number, amount: number, outputUncapped: boolean): GatewayError {
  const resets = window.resetsAt ? `it resets at ${window.resetsAt.toISOString()}` : 'it does not reset';
  // Without max_tokens a request holds the model's whole output limit: usually most of the hold.
  const lower = outputUncapped ? ' (set max_tokens to hold less: without it the request holds the model\'s whole output limit)' : '';
  return new GatewayError(
    'budget_exceeded',
    `Budget exceeded: ${scope.kind} '${scope.name}' has used ${usd(toUsd(used))} of its ${usd(scope.budget.usd)} ${PERIOD_WORDS[scope.budget.period]} budget and this request may cost up to ${usd(toUsd(amount))}${lower}; ${resets}`,
    { code: 'budget_exceeded', param: scope.kind === 'key' ? 'key.budget' : 'team.budget' },
  );
}
