import { periodWindow, type BudgetScope } from '@rosetta/limits';
import { budgetAlertScope } from './budget-alerts.service';

describe('budgetAlertScope', () => {
  const window = periodWindow('day', Date.parse('2026-11-29T10:00:00Z'));

  it('names a key or team budget by its own id and name', () => {
    const scope: BudgetScope = { kind: 'team', id: 't-1', name: 'ops', budget: { usd: 10, period: 'day' }, tag: '{t:t-1}' };
    expect(budgetAlertScope(scope, window)).toEqual({
      scope: 'team', id: 't-1', name: 'ops', budgetUsd: 10, period: 'day', periodId: window.id, periodStart: window.startsAt, resetsAt: window.resetsAt,
    });
  });

  it("names an end user's budget by the end user, with the key it belongs to", () => {
    const scope: BudgetScope = { kind: 'end_user', id: 'k-1', name: 'support-bot', budget: { usd: 0.5, period: 'day' }, tag: '{k:k-1}', endUser: { name: 'alice@corp', digest: 'abc' } };
    expect(budgetAlertScope(scope, window)).toEqual({
      scope: 'end_user', id: 'alice@corp', name: 'alice@corp', keyId: 'k-1', budgetUsd: 0.5, period: 'day', periodId: window.id, periodStart: window.startsAt, resetsAt: window.resetsAt,
    });
  });
});
