import type { BudgetScope } from './budget.service';
import { toUsd, type PeriodWindow } from './budget-period';

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

/** The observers of BudgetService; one that throws is logged, never the request's failure. */
export class BudgetObservers {
  private readonly observers: BudgetObserver[] = [];

  constructor(private readonly logger: { warn(fields: Record<string, unknown>, message: string): void }) {}

  add(observer: BudgetObserver): void {
    this.observers.push(observer);
  }

  /** A settle charged `nanos` to a hold's counters; `after` is each counter's spend once charged (-1: not seeded). */
  charged(hold: { scopes?: BudgetScope[]; windows?: PeriodWindow[] }, nanos: number, after: number[]): void {
    if (this.observers.length === 0 || nanos === 0 || !hold.scopes || !hold.windows) return;
    for (const [i, spent] of after.entries()) {
      const scope = hold.scopes[i];
      const window = hold.windows[i];
      if (!scope || !window || spent < 0) continue;
      for (const observer of this.observers) this.tell(() => observer.charged(scope, window, toUsd(spent - nanos), toUsd(spent)));
    }
  }

  refused(scope: BudgetScope, window: PeriodWindow, usedNanos: number): void {
    for (const observer of this.observers) this.tell(() => observer.refused(scope, window, toUsd(usedNanos)));
  }

  private tell(notify: () => void): void {
    try {
      notify();
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'budgets: an observer failed');
    }
  }
}
