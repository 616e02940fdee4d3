/**
 * The ledger's monthly partitions (ARCHITECTURE §9): `request_log_YYYY_MM` holds the rows whose
 * `created_at` falls in that UTC month. Pure date arithmetic, shared by the migration that
 * partitions the table and the maintenance that creates partitions ahead and drops old ones.
 */
export interface LedgerMonth {
  /** `request_log_2026_11`. */
  name: string;
  /** Inclusive: the month's first instant, UTC. */
  from: Date;
  /** Exclusive: the next month's first instant, UTC. */
  to: Date;
}

/** The UTC month that holds `instant`, `offset` months later (negative: earlier). */
export function ledgerMonth(instant: Date, offset = 0): LedgerMonth {
  const from = new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth() + offset, 1));
  const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
  const month = String(from.getUTCMonth() + 1).padStart(2, '0');
  return { name: `request_log_${from.getUTCFullYear()}_${month}`, from, to };
}

/** The month of `now` and the `ahead` months after it, oldest first. */
export function ledgerMonthsAhead(now: Date, ahead: number): LedgerMonth[] {
  return Array.from({ length: ahead + 1 }, (_, i) => ledgerMonth(now, i));
}

/** How many months the gateway keeps created beyond the current one. */
export const LEDGER_MONTHS_AHEAD = 2;

/** `CREATE TABLE … PARTITION OF request_log` for a month, a no-op when it exists. */
export function createMonthSql(month: LedgerMonth): string {
  return `CREATE TABLE IF NOT EXISTS ${month.name} PARTITION OF request_log FOR VALUES FROM ('${month.from.toISOString()}') TO ('${month.to.toISOString()}')`;
}
