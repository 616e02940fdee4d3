import { Injectable, type OnModuleInit } from '@nestjs/common';
import { BudgetService, type BudgetObserver, type BudgetScope, type PeriodWindow } from '@rosetta/limits';
import type { BudgetAlertScope } from './alert-payloads';
import { AlertsService } from './alerts.service';

/**
 * A key's, team's or end user's budget in one period, as the alerts name it: an end user by the
 * id its client sent, with the key whose `end_user_budget_usd` it is.
 */
export function budgetAlertScope(scope: BudgetScope, window: PeriodWindow): BudgetAlertScope {
  const endUser = scope.kind === 'end_user' ? scope.endUser : undefined;
  return {
    scope: scope.kind,
    id: endUser ? endUser.name : scope.id,
    name: endUser ? endUser.name : scope.name,
    ...(endUser ? { keyId: scope.id } : {}),
    budgetUsd: scope.budget.usd,
    period: scope.budget.period,
    periodId: window.id,
    periodStart: window.startsAt,
    resetsAt: window.resetsAt,
  };
}

/**
 * Watches the key, team and end-user budgets (BudgetService) for `budget.threshold`: the spend a
 * settle reports after its charge, and each 402.
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
