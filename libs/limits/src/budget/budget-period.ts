import type { BudgetPeriod } from '@rosetta/auth';

/** One occurrence of a budget's period: the slice of time spend is counted in. */
export interface PeriodWindow {
  /** Stable id of this occurrence, part of the store key (`d2026-11-24`, `m2026-11`, `total`). */
  id: string;
  startsAt: Date;
  /** When the next occurrence starts; null for `total`. */
  resetsAt: Date | null;
}

/** The UTC day, the UTC month, or all time, that `now` falls in. */
export function periodWindow(period: BudgetPeriod, now: number): PeriodWindow {
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  if (period === 'day') {
    const startsAt = new Date(Date.UTC(year, month, date.getUTCDate()));
    return { id: `d${startsAt.toISOString().slice(0, 10)}`, startsAt, resetsAt: new Date(startsAt.getTime() + 86_400_000) };
  }
  if (period === 'month') {
    const startsAt = new Date(Date.UTC(year, month, 1));
    return { id: `m${startsAt.toISOString().slice(0, 7)}`, startsAt, resetsAt: new Date(Date.UTC(year, month + 1, 1)) };
  }
  return { id: 'total', startsAt: new Date(0), resetsAt: null };
}

/** Store amounts are whole nano-dollars (1e-9 USD): integers in Redis, exact to $9M per budget. */
export const NANOS_PER_USD = 1e9;

/** USD to nano-dollars, rounded up: what is reserved or charged never understates a cost. */
export function toNanos(usd: number): number {
  if (!Number.isFinite(usd) || usd <= 0) return 0;
  return Math.ceil(usd * NANOS_PER_USD - 1e-6);
}

export function toUsd(nanos: number): number {
  return nanos / NANOS_PER_USD;
}
