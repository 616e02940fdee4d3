import { usageTotals, type UsageReportRow } from '@rosetta/usage';
import type { SpendSummary } from './alert-payloads';
import { DAY_MS } from './alerts-config';

/** How many keys, teams and models a summary names. */
export const SUMMARY_TOP = 5;

/** The last whole period before `now` (aligned to the epoch, so a day is a UTC day), once `graceMs` has passed since it ended. */
export function lastClosedPeriod(now: number, periodMs: number, graceMs: number): { from: Date; to: Date } {
  const end = Math.floor((now - graceMs) / periodMs) * periodMs;
  return { from: new Date(end - periodMs), to: new Date(end) };
}

/** A day is named by its date; a shortened (test) period by its start. */
export function periodLabel(from: Date, periodMs: number): string {
  return periodMs === DAY_MS ? from.toISOString().slice(0, 10) : from.toISOString();
}

function byCost(a: UsageReportRow, b: UsageReportRow): number {
  return Number(b.cost_usd) - Number(a.cost_usd) || b.requests - a.requests;
}

/** Totals and the biggest spenders from three usage reports of the period (by key, team, model). */
export function spendSummary(period: { from: Date; to: Date; label: string }, rows: { keys: UsageReportRow[]; teams: UsageReportRow[]; models: UsageReportRow[] }): SpendSummary {
  const totals = usageTotals(rows.keys);
  return {
    label: period.label,
    from: period.from,
    to: period.to,
    costUsd: totals.cost_usd,
    requests: totals.requests,
    errors: totals.errors,
    topKeys: [...rows.keys].sort(byCost).slice(0, SUMMARY_TOP).map((r) => ({ id: r.api_key_id ?? null, name: r.key_name ?? null, cost_usd: r.cost_usd, requests: r.requests })),
    topTeams: [...rows.teams]
      .filter((r) => r.team_id)
      .sort(byCost)
      .slice(0, SUMMARY_TOP)
      .map((r) => ({ id: r.team_id ?? null, name: r.team_name ?? null, cost_usd: r.cost_usd, requests: r.requests })),
    topModels: [...rows.models].sort(byCost).slice(0, SUMMARY_TOP).map((r) => ({ model: r.served_model ?? null, cost_usd: r.cost_usd, requests: r.requests })),
  };
}
