import { usdString } from '@rosetta/usage';
import type { AlertEvent } from './alert-event';

/** A budget's thresholds, as percentages: 50 and 80 on crossing, 100 on the first refusal. */
export const BUDGET_THRESHOLDS = [50, 80, 100] as const;
export type BudgetThreshold = (typeof BUDGET_THRESHOLDS)[number];

/**
 * The thresholds (50, 80) one charge crossed, moving a budget's spend from `beforeUsd` to
 * `afterUsd`. 100 never: holds keep spend below the budget, so its first refusal says it is used up.
 */
export function crossedThresholds(budgetUsd: number, beforeUsd: number, afterUsd: number): Array<50 | 80> {
  if (!(budgetUsd > 0)) return [];
  return ([50, 80] as const).filter((threshold) => {
    const line = (budgetUsd * threshold) / 100;
    return beforeUsd < line && afterUsd >= line;
  });
}

/**
 * One budget in one period: a key's, a team's or an end user's (of a key). Generic on purpose:
 * whatever holds a budget raises its alerts through this shape.
 */
export interface BudgetAlertScope {
  scope: 'key' | 'team' | 'end_user';
  /** The key's or team's id; the end user's id (as the client sent it). */
  id: string;
  /** The key's or team's name; the end user's id again. */
  name: string;
  /** The key an end user's budget belongs to (end_user only). */
  keyId?: string;
  budgetUsd: number;
  period: 'day' | 'month' | 'total';
  /** The period's stable id (`d2026-11-29`, `m2026-11`, `total`). */
  periodId: string;
  periodStart: Date;
  resetsAt: Date | null;
}

const PERIOD_WORDS = { day: 'daily', month: 'monthly', total: 'total' } as const;
const SCOPE_WORDS = { key: 'Key', team: 'Team', end_user: 'End user' } as const;

function dollars(value: number): string {
  return `$${value.toFixed(value < 1 ? 4 : 2)}`;
}

/** A value inside an event id: no separator inside it, bounded (ids are a primary key). */
function idPart(value: string): string {
  return encodeURIComponent(value).slice(0, 200);
}

function who(scope: BudgetAlertScope): string {
  const owner = scope.scope === 'end_user' && scope.keyId ? ` of key ${scope.keyId}` : '';
  return `${SCOPE_WORDS[scope.scope]} '${scope.name}'${owner}`;
}

export function budgetEventId(scope: BudgetAlertScope, threshold: BudgetThreshold): string {
  const owner = scope.scope === 'end_user' ? `${idPart(scope.keyId ?? '')}/` : '';
  return `budget.threshold:${scope.scope}:${owner}${idPart(scope.id)}:${scope.periodId}:${threshold}`;
}

/** `budget.threshold`: 50 and 80 when spend crosses them, 100 when a request is first refused. */
export function budgetThresholdEvent(scope: BudgetAlertScope, threshold: BudgetThreshold, spentUsd: number): AlertEvent {
  const budget = `${dollars(scope.budgetUsd)} ${PERIOD_WORDS[scope.period]} budget`;
  const resets = scope.resetsAt ? `it resets at ${scope.resetsAt.toISOString()}` : 'it does not reset';
  const text =
    threshold === 100
      ? `${who(scope)} has reached its ${budget} (${dollars(spentUsd)} spent): a request was refused; ${resets}.`
      : `${who(scope)} has used ${threshold}% of its ${budget} (${dollars(spentUsd)} spent); ${resets}.`;
  return {
    id: budgetEventId(scope, threshold),
    event: 'budget.threshold',
    text,
    data: {
      scope: scope.scope,
      id: scope.id,
      name: scope.name,
      ...(scope.scope === 'end_user' ? { key_id: scope.keyId ?? null } : {}),
      threshold,
      budget_usd: usdString(scope.budgetUsd),
      spent_usd: usdString(spentUsd),
      period: scope.period,
      period_start: scope.periodStart.toISOString(),
      resets_at: scope.resetsAt?.toISOString() ?? null,
    },
  };
}

/** One opening of a provider's circuit, as the replicas agreed on it (CircuitAlerts). */
export interface CircuitOpening {
  provider: string;
  /** The opening's id: the first replica's opening time, epoch ms. */
  opening: string;
  /** The endpoint (`<provider>/<upstream model>`) whose circuit opened first. */
  endpoint: string;
  openedAt: Date;
}

export function circuitOpenEvent(o: CircuitOpening): AlertEvent {
  return {
    id: `provider.circuit_open:${idPart(o.provider)}:${o.opening}`,
    event: 'provider.circuit_open',
    text: `Provider '${o.provider}' is failing: the circuit of ${o.endpoint} opened at ${o.openedAt.toISOString()}, and requests go to other providers until it recovers.`,
    data: { provider: o.provider, endpoint: o.endpoint, opening: o.opening, opened_at: o.openedAt.toISOString() },
  };
}

export function circuitClosedEvent(o: CircuitOpening, closedAt: Date): AlertEvent {
  const seconds = Math.max(0, Math.round((closedAt.getTime() - o.openedAt.getTime()) / 1000));
  return {
    id: `provider.circuit_closed:${idPart(o.provider)}:${o.opening}`,
    event: 'provider.circuit_closed',
    text: `Provider '${o.provider}' recovered: its circuits closed at ${closedAt.toISOString()}, ${seconds} s after the opening.`,
    data: { provider: o.provider, endpoint: o.endpoint, opening: o.opening, opened_at: o.openedAt.toISOString(), closed_at: closedAt.toISOString() },
  };
}

/** A guardrail check's blocks in one UTC hour, when they first pass the threshold. */
export interface GuardrailBlocks {
  check: string;
  hourStart: Date;
  blocked: number;
  threshold: number;
  /** The request that passed the threshold. */
  keyId: string;
  teamId: string | null;
}

export function guardrailBlockedEvent(g: GuardrailBlocks): AlertEvent {
  return {
    id: `guardrail.blocked:${idPart(g.check)}:${g.hourStart.toISOString()}`,
    event: 'guardrail.blocked',
    text: `Guardrail '${g.check}' has blocked more than ${g.threshold} requests in the hour from ${g.hourStart.toISOString()}.`,
    data: { check: g.check, blocked: g.blocked, threshold: g.threshold, hour_start: g.hourStart.toISOString(), key_id: g.keyId, team_id: g.teamId },
  };
}

/** What a day cost, from the ledger's rollup: totals and the biggest spenders. */
export interface SpendSummary {
  /** `YYYY-MM-DD` (UTC) for a day; the window's start otherwise (ALERTS_SPEND_DAILY_PERIOD_MS). */
  label: string;
  from: Date;
  to: Date;
  costUsd: string;
  requests: number;
  errors: number;
  topKeys: Array<{ id: string | null; name: string | null; cost_usd: string; requests: number }>;
  topTeams: Array<{ id: string | null; name: string | null; cost_usd: string; requests: number }>;
  topModels: Array<{ model: string | null; cost_usd: string; requests: number }>;
}

export function spendDailyEvent(s: SpendSummary): AlertEvent {
  const top = (label: string, name: string | null | undefined, cost: string | undefined): string => (name && cost ? ` Top ${label}: '${name}' ($${cost}).` : '');
  const firstKey = s.topKeys[0];
  const firstModel = s.topModels[0];
  const requests = s.requests === 1 ? '1 request' : `${s.requests.toLocaleString('en-US')} requests`;
  return {
    id: `spend.daily:${s.label}`,
    event: 'spend.daily',
    text: `Spend on ${s.label}: $${s.costUsd} over ${requests}.${top('key', firstKey?.name ?? firstKey?.id, firstKey?.cost_usd)}${top('model', firstModel?.model, firstModel?.cost_usd)}`,
    data: {
      day: s.label,
      from: s.from.toISOString(),
      to: s.to.toISOString(),
      cost_usd: s.costUsd,
      requests: s.requests,
      errors: s.errors,
      top_keys: s.topKeys,
      top_teams: s.topTeams,
      top_models: s.topModels,
    },
  };
}
