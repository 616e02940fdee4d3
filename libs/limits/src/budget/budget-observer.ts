import type { BudgetScope } from './budget.service';
import type { PeriodWindow } from './budget-period';

/**
 * Who wants to know when a budget's spend moves (the alerts): told after the fact, never awaited,
 * so nothing here slows a request. The spend figures come from the same atomic step that charged
 * or refused, so across replicas exactly one settle sees a given threshold crossed.
 */
export interface BudgetObserver {
  /** A request's cost was charged: the budget's spend went from `beforeUsd` to `afterUsd` this period. */
  charged(scope: BudgetScope, window: PeriodWindow, beforeUsd: number, afterUsd: number): void;
  /** A request was refused (402) for this budget, which had `usedUsd` spent or held. */
  refused(scope: BudgetScope, window: PeriodWindow, usedUsd: number): void;
}
