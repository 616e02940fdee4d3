import { Injectable } from '@nestjs/common';
import { createMonthSql, ledgerMonth, type LedgerMonth } from '@rosetta/persistence';
import { DataSource } from 'typeorm';

/** A partition of `request_log` and the range it holds (`to` null: no upper bound, or the default). */
export interface LedgerPartition {
  name: string;
  to: Date | null;
  isDefault: boolean;
}

const MAINTENANCE_LOCK = 7_152_030; // arbitrary, fixed: one replica maintains the ledger at a time

/**
 * The ledger's partitions (decision 0027): listed from the catalog, created a month at a time, and
 * dropped whole. Statements that must not interleave with other work run as one multi-statement
 * string: on PostgreSQL that is one transaction, and on embedded PGlite (one session shared by
 * everything) nothing else runs in between.
 */
@Injectable()
export class LedgerPartitionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Runs `work` while this connection holds the maintenance lock; undefined, without waiting, when
   * another replica (or worker) holds it — its run does the same work.
   */
  async exclusively<T>(work: () => Promise<T>): Promise<T | undefined> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [row] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [MAINTENANCE_LOCK])) as Array<{ locked: boolean }>;
      if (!row?.locked) return undefined;
      try {
        return await work();
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [MAINTENANCE_LOCK]).catch(() => undefined);
      }
    } finally {
      await runner.release();
    }
  }

  async list(): Promise<LedgerPartition[]> {
    const rows = (await this.dataSource.query(
      `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT' AS is_default,
              (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::timestamptz AS upper
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'request_log'::regclass ORDER BY upper NULLS LAST, c.relname`,
    )) as Array<{ name: string; is_default: boolean; upper: Date | null }>;
    return rows.map((row) => ({ name: row.name, to: row.upper, isDefault: row.is_default }));
  }

  /** The months of the rows the default partition caught (none, normally). */
  async monthsInDefault(): Promise<LedgerMonth[]> {
    const rows = (await this.dataSource.query(
      "SELECT DISTINCT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month FROM request_log_default ORDER BY 1",
    )) as Array<{ month: string }>;
    return rows.map((row) => ledgerMonth(new Date(`${row.month}-01T00:00:00.000Z`)));
  }

  /**
   * Creates a month's partition. When the default partition holds rows of that month they move
   * into it in the same transaction (PostgreSQL refuses the partition while they are there).
   */
  async createMonth(month: LedgerMonth): Promise<void> {
    const range = `created_at >= '${month.from.toISOString()}' AND created_at < '${month.to.toISOString()}'`;
    const [{ caught }] = (await this.dataSource.query(`SELECT EXISTS (SELECT 1 FROM request_log_default WHERE ${range}) AS caught`)) as [{ caught: boolean }];
    if (!caught) {
      await this.dataSource.query(createMonthSql(month));
      return;
    }
    const columns = await this.insertableColumns();
    await atomically(this.dataSource, `
      ALTER TABLE request_log DETACH PARTITION request_log_default;
      ${createMonthSql(month)};
      WITH moved AS (DELETE FROM request_log_default WHERE ${range} RETURNING ${columns})
      INSERT INTO request_log (${columns}) SELECT ${columns} FROM moved;
      ALTER TABLE request_log ATTACH PARTITION request_log_default DEFAULT`);
  }

  /**
   * Drops a partition whose days are all rolled up, and marks those days' raw rows gone in the same
   * transaction: from then on their rollup is all there is (budgets' spend adds it back).
   */
  async drop(partition: LedgerPartition & { to: Date }): Promise<void> {
    if (!/^request_log_(legacy|\d{4}_\d{2})$/.test(partition.name)) throw new Error(`refusing to drop '${partition.name}': not a ledger month or the legacy partition`);
    await atomically(
      this.dataSource,
      `DROP TABLE ${partition.name};
       UPDATE request_log_days SET dropped = true WHERE day < '${partition.to.toISOString().slice(0, 10)}'::date AND NOT dropped`,
    );
  }

  /** Every column but the generated ones, which PostgreSQL computes and refuses to be given. */
  private async insertableColumns(): Promise<string> {
    const [row] = (await this.dataSource.query(
      "SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) AS list FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'request_log' AND is_generated = 'NEVER'",
    )) as [{ list: string }];
    return row.list;
  }
}

/**
 * Statements run as one transaction in one call: each statement still takes its own snapshot (read
 * committed), and on PGlite no other query can slip in between. A failure rolls back on the same
 * connection, so the pool never gets one back inside an aborted transaction.
 */
export async function atomically(dataSource: DataSource, statements: string): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query(`BEGIN; ${statements}; COMMIT;`);
  } catch (error) {
    await runner.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
  }
}
