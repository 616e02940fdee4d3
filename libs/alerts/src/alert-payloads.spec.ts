import { alertBody } from './alert-event';
import { budgetThresholdEvent, circuitClosedEvent, circuitOpenEvent, crossedThresholds, guardrailBlockedEvent, spendDailyEvent, type BudgetAlertScope } from './alert-payloads';

const keyScope: BudgetAlertScope = {
  scope: 'key',
  id: '0b6f3c52-8d0e-4c55-9d8b-1d2f3a4b5c6d',
  name: 'budgeted',
  budgetUsd: 0.0005,
  period: 'day',
  periodId: 'd2026-11-29',
  periodStart: new Date('2026-11-29T00:00:00.000Z'),
  resetsAt: new Date('2026-11-30T00:00:00.000Z'),
};

describe('alert payloads', () => {
  it('budget.threshold at 80 %: a sentence and the facts, with an id per budget, period and threshold', () => {
    expect(budgetThresholdEvent(keyScope, 80, 0.000412)).toEqual({
      id: 'budget.threshold:key:0b6f3c52-8d0e-4c55-9d8b-1d2f3a4b5c6d:d2026-11-29:80',
      event: 'budget.threshold',
      text: "Key 'budgeted' has used 80% of its $0.0005 daily budget ($0.0004 spent); it resets at 2026-11-30T00:00:00.000Z.",
      data: {
        scope: 'key',
        id: '0b6f3c52-8d0e-4c55-9d8b-1d2f3a4b5c6d',
        name: 'budgeted',
        threshold: 80,
        budget_usd: '0.0005',
        spent_usd: '0.000412',
        period: 'day',
        period_start: '2026-11-29T00:00:00.000Z',
        resets_at: '2026-11-30T00:00:00.000Z',
      },
    });
  });

  it('budget.threshold at 100 % says a request was refused; a total budget does not reset', () => {
    const team: BudgetAlertScope = { ...keyScope, scope: 'team', id: 't-1', name: 'research', budgetUsd: 25, period: 'total', periodId: 'total', periodStart: new Date(0), resetsAt: null };
    const event = budgetThresholdEvent(team, 100, 24.9);
    expect(event.id).toBe('budget.threshold:team:t-1:total:100');
    expect(event.text).toBe("Team 'research' has reached its $25.00 total budget ($24.90 spent): a request was refused; it does not reset.");
    expect(event.data).toEqual(expect.objectContaining({ scope: 'team', threshold: 100, budget_usd: '25', spent_usd: '24.9', resets_at: null }));
  });

  it('an end user is named with its key, and odd characters cannot break the id apart', () => {
    const user: BudgetAlertScope = { ...keyScope, scope: 'end_user', id: 'alice:ops/1', name: 'alice:ops/1', keyId: 'k-1' };
    const event = budgetThresholdEvent(user, 50, 0.0003);
    expect(event.id).toBe('budget.threshold:end_user:k-1/alice%3Aops%2F1:d2026-11-29:50');
    expect(event.text).toBe("End user 'alice:ops/1' of key k-1 has used 50% of its $0.0005 daily budget ($0.0003 spent); it resets at 2026-11-30T00:00:00.000Z.");
    expect(event.data).toEqual(expect.objectContaining({ scope: 'end_user', id: 'alice:ops/1', key_id: 'k-1' }));
  });

  it('provider.circuit_open and _closed share the opening in their ids', () => {
    const opening = { provider: 'openai', opening: '1764410000000', endpoint: 'openai/gpt-4o-mini', openedAt: new Date(1764410000000) };
    expect(circuitOpenEvent(opening)).toEqual({
      id: 'provider.circuit_open:openai:1764410000000',
      event: 'provider.circuit_open',
      text: "Provider 'openai' is failing: the circuit of openai/gpt-4o-mini opened at 2025-11-29T09:53:20.000Z, and requests go to other providers until it recovers.",
      data: { provider: 'openai', endpoint: 'openai/gpt-4o-mini', opening: '1764410000000', opened_at: '2025-11-29T09:53:20.000Z' },
    });
    expect(circuitClosedEvent(opening, new Date(1764410042000))).toEqual({
      id: 'provider.circuit_closed:openai:1764410000000',
      event: 'provider.circuit_closed',
      text: "Provider 'openai' recovered: its circuits closed at 2025-11-29T09:54:02.000Z, 42 s after the opening.",
      data: { provider: 'openai', endpoint: 'openai/gpt-4o-mini', opening: '1764410000000', opened_at: '2025-11-29T09:53:20.000Z', closed_at: '2025-11-29T09:54:02.000Z' },
    });
  });

  it('guardrail.blocked names the check, the hour and the threshold', () => {
    expect(guardrailBlockedEvent({ check: 'pii', hourStart: new Date('2026-11-29T10:00:00Z'), blocked: 101, threshold: 100, keyId: 'k-1', teamId: null })).toEqual({
      id: 'guardrail.blocked:pii:2026-11-29T10:00:00.000Z',
      event: 'guardrail.blocked',
      text: "Guardrail 'pii' has blocked more than 100 requests in the hour from 2026-11-29T10:00:00.000Z.",
      data: { check: 'pii', blocked: 101, threshold: 100, hour_start: '2026-11-29T10:00:00.000Z', key_id: 'k-1', team_id: null },
    });
  });

  it('spend.daily: the day, its total and the biggest spenders', () => {
    const event = spendDailyEvent({
      label: '2026-11-28',
      from: new Date('2026-11-28T00:00:00Z'),
      to: new Date('2026-11-29T00:00:00Z'),
      costUsd: '12.5',
      requests: 1234,
      errors: 3,
      topKeys: [{ id: 'k-1', name: 'prod', cost_usd: '10', requests: 1000 }],
      topTeams: [],
      topModels: [{ model: 'rosetta/gpt-4o-mini', cost_usd: '9', requests: 900 }],
    });
    expect(event.id).toBe('spend.daily:2026-11-28');
    expect(event.text).toBe("Spend on 2026-11-28: $12.5 over 1,234 requests. Top key: 'prod' ($10). Top model: 'rosetta/gpt-4o-mini' ($9).");
    expect(event.data).toEqual({
      day: '2026-11-28',
      from: '2026-11-28T00:00:00.000Z',
      to: '2026-11-29T00:00:00.000Z',
      cost_usd: '12.5',
      requests: 1234,
      errors: 3,
      top_keys: [{ id: 'k-1', name: 'prod', cost_usd: '10', requests: 1000 }],
      top_teams: [],
      top_models: [{ model: 'rosetta/gpt-4o-mini', cost_usd: '9', requests: 900 }],
    });
  });

  it('the body is {event, text, data, id} in that order', () => {
    const event = budgetThresholdEvent(keyScope, 50, 0.00025);
    expect(Object.keys(JSON.parse(alertBody(event)))).toEqual(['event', 'text', 'data', 'id']);
  });
});

describe('budget thresholds crossed by one charge', () => {
  it('is the lines the charge stepped over, each once', () => {
    expect(crossedThresholds(10, 4, 5)).toEqual([50]);
    expect(crossedThresholds(10, 4.99, 8.5)).toEqual([50, 80]);
    expect(crossedThresholds(10, 5, 6)).toEqual([]);
    expect(crossedThresholds(10, 7.9, 8)).toEqual([80]);
    expect(crossedThresholds(10, 8, 9.99)).toEqual([]);
    expect(crossedThresholds(10, 0, 0)).toEqual([]);
  });

  it('says nothing for a budget of zero (its first refusal is the alert)', () => {
    expect(crossedThresholds(0, 0, 1)).toEqual([]);
  });
});
