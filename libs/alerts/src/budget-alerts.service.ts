import { Injectable, type OnModuleInit } from '@nestjs/common';
import { BudgetService, type BudgetObserver, type BudgetScope, type PeriodWindow } from '@rosetta/limits';
import type { BudgetAlertScope } from './alert-payloads';
import { AlertsService } from './alerts.service';

/** A key's or team's budget in one period, as the alerts name it. */
export function budgetAlertScope(scope: BudgetScope, window: PeriodWindow): BudgetAlertScope {
  return {
    scope: scope.kind,
    id: scope.id,
    name: scope.name,
    budgetUsd: scope.budget.usd,
    period: scope.budget.period,
    periodId: window.id,
    periodStart: window.startsAt,
    resetsAt: window.resetsAt,
  };
}

/**
 * Watches the key and team budgets (BudgetService) for `budget.threshold`: the spend a settle
 * reports after its charge, and each 402. Another budget (an end user's) calls AlertsService's
 * budgetCharged / budgetRefused with its own BudgetAlertScope.
 */
@Injectable()
export class BudgetAlertsService implements OnModuleInit, BudgetObserver {
  constructor(
    private readonly budgets: BudgetService,
    private readonly alerts: AlertsService,
  ) {}

  onModuleInit(): void {
    this.budgets.observe(this);
  }

  charged(scope: BudgetScope, window: PeriodWindow, beforeUsd: number, afterUsd: number): void {
    this.alerts.budgetCharged(budgetAlertScope(scope, window), beforeUsd, afterUsd);
  }

  refused(scope: BudgetScope, window: PeriodWindow, usedUsd: number): void {
    this.alerts.budgetRefused(budgetAlertScope(scope, window), usedUsd);
  }
}
