import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { RosettaConfig } from '@rosetta/platform';
import {
  LedgerHoursRepository, LedgerMaintenanceService, LedgerPartitionsRepository, LedgerRollupRepository, UsageReportRepository,
  type AttributionReportFilter, type ReportPage, type ReportPageResult, type UsageReportFilter, type UsageReportRow,
} from '@rosetta/usage';
import { createDataSource, migrate } from '@rosetta/persistence';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { createTestDatabase } from './services';

/** What the helpers below need of a database: PostgreSQL's data source, or the PGlite peer. */
export interface LedgerDb {
  query(sql: string, params?: unknown[]): Promise<any>;
}

/** A usage report's whole answer and its pages (decision 0034), by either report repository. */
export interface PagedReports<F = UsageReportFilter> {
  report(filter: F): Promise<UsageReportRow[]>;
  page(filter: F, page: ReportPage): Promise<ReportPageResult>;
}

/** The ledger's maintenance and report, in process or in the PGlite peer. */
export interface Ledger {
  maintenance: { run(now?: Date): Promise<{ created: string[]; rolled: string[]; dropped: string[]; hours: string[] } | undefined> };
  reports: PagedReports;
}

/** The ledger's maintenance and report on a data source, as the gateway wires them. */
export function ledgerOn(dataSource: DataSource, retentionDays?: number): Ledger {
  const rollups = new LedgerRollupRepository(dataSource);
  const hourly = new LedgerHoursRepository(dataSource);
  const config = { ledgerRetentionDays: retentionDays } as RosettaConfig;
  return {
    maintenance: new LedgerMaintenanceService(new LedgerPartitionsRepository(dataSource), rollups, hourly, config, pino({ level: 'silent' })),
    reports: new UsageReportRepository(dataSource, rollups, hourly),
  };
}

/** The partitions of request_log by name, in name order. */
export async function partitionNames(dataSource: LedgerDb): Promise<string[]> {
  const rows = (await dataSource.query(
    "SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'request_log'::regclass ORDER BY 1",
  )) as Array<{ name: string }>;
  return rows.map((row) => row.name);
}

export interface SeedOptions {
  prefix: string;
  count: number;
  /** The first row's time; each next one `stepSeconds` later. */
  start: Date;
  stepSeconds: number;
  keys: string[];
  teams: string[];
}

/**
 * `count` ledger rows of every kind a report tells apart: several keys (and none), teams (and
 * none), models (and none served), providers, errors by status and by type, cache hits and misses,
 * costs to the 12th decimal. Written straight into the table, as the batched writer would.
 */
export async function seedLedger(dataSource: LedgerDb, o: SeedOptions): Promise<void> {
  await dataSource.query(
    `INSERT INTO request_log (request_id, api_key_id, team_id, dialect, requested_model, served_model, provider, status, error_type, input_tokens,
       output_tokens, cached_tokens, reasoning_tokens, cost_usd, latency_ms, streamed, created_at, cache, saved_usd)
     SELECT $1 || i, ($2::uuid[])[1 + i % (cardinality($2) + 1)], ($3::uuid[])[1 + i % (cardinality($3) + 1)], 'openai', 'rosetta/m' || (i % 4),
            CASE WHEN i % 7 = 0 THEN NULL ELSE 'rosetta/m' || (i % 3) END, (ARRAY['openai', 'anthropic', NULL])[1 + i % 3],
            CASE WHEN i % 11 = 0 THEN 502 ELSE 200 END, CASE WHEN i % 13 = 0 THEN 'interrupted' END, i % 1000, i % 300, i % 50, i % 20,
            (i % 97) * 0.000000123457, 100, false, $4::timestamptz + (i - 1) * $5::float8 * interval '1 second',
            CASE WHEN i % 5 = 0 THEN 'hit' WHEN i % 5 = 1 THEN 'miss' END, CASE WHEN i % 5 = 0 THEN (i % 31) * 0.000001000001 END
       FROM generate_series(1, $6) i`,
    [o.prefix, o.keys, o.teams, o.start, o.stepSeconds, o.count],
  );
}

/** Gives the seeded rows end users (some none, one with odd text) and tags (none, one, several). */
export async function attribute(dataSource: LedgerDb, prefix: string): Promise<void> {
  await dataSource.query(
    `UPDATE request_log SET
       end_user = (ARRAY['alice', 'bob', 'ユーザー 😀', NULL])[1 + (substring(request_id from '[0-9]+$')::int % 4)],
       tags = CASE substring(request_id from '[0-9]+$')::int % 4 WHEN 1 THEN ARRAY['env=prod'] WHEN 2 THEN ARRAY['env=prod', 'team:search'] WHEN 3 THEN ARRAY[]::text[] END
     WHERE request_id LIKE $1 || '%'`,
    [prefix],
  );
}

/** Report filters that cover every group_by, partial days at both ends, whole days, and the key and team filters. */
export function reportCases(now: Date, key: string, team: string): UsageReportFilter[] {
  const day = 86_400_000;
  const midnight = new Date(Math.floor(now.getTime() / day) * day);
  const cut = { from: new Date(now.getTime() - 4.6 * day), to: new Date(now.getTime() + 3_600_000) };
  const whole = { from: new Date(midnight.getTime() - 4 * day), to: midnight };
  const groupings: UsageReportFilter['groupBy'][] = [['day'], ['hour'], ['key'], ['team'], ['model'], ['provider'], ['day', 'key', 'model'], ['team', 'provider', 'day']];
  return [
    ...groupings.map((groupBy) => ({ ...cut, groupBy })),
    ...groupings.map((groupBy) => ({ ...whole, groupBy })),
    { ...cut, groupBy: ['day', 'model'], apiKeyId: key },
    { ...whole, groupBy: ['provider', 'day'], teamId: team },
    { from: new Date(midnight.getTime() - 2 * day + 3_600_000), to: new Date(midnight.getTime() - day - 3_600_000), groupBy: ['key'] },
  ];
}

/**
 * The compiled ledger on embedded PGlite in a child process (test/support/ledger-pglite-peer.js):
 * the same helpers drive it through `query`, `report` and `run`.
 */
export async function startPglitePeer(dataDir: string): Promise<Ledger & { db: LedgerDb; attribution: PagedReports<AttributionReportFilter>; close(): Promise<void> }> {
  const child = spawn(process.execPath, [join(__dirname, 'ledger-pglite-peer.js'), dataDir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const waiting = new Map<number, { resolve(value: any): void; reject(error: Error): void }>();
  let ready!: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  lines.on('line', (line) => {
    const message = JSON.parse(line) as { id?: number; ready?: boolean; result?: unknown; error?: string };
    if (message.ready) return ready();
    const call = waiting.get(message.id!);
    waiting.delete(message.id!);
    if (message.error !== undefined) call?.reject(new Error(message.error));
    else call?.resolve(message.result);
  });
  child.once('exit', (code) => {
    for (const call of waiting.values()) call.reject(new Error(`PGlite peer exited with code ${code}`));
  });
  let next = 0;
  const ask = (message: Record<string, unknown>): Promise<any> =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      child.stdin!.write(`${JSON.stringify({ id, ...message })}\n`);
    });
  await started;
  return {
    db: { query: (sql, params) => ask({ op: 'query', sql, params }) },
    reports: { report: (filter) => ask({ op: 'report', filter }), page: (filter, page) => ask({ op: 'page', filter, page }) },
    attribution: { report: (filter) => ask({ op: 'report', filter, attribution: true }), page: (filter, page) => ask({ op: 'page', filter, page, attribution: true }) },
    maintenance: { run: (now = new Date()) => ask({ op: 'run', now }) },
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await ask({ op: 'close' }).catch(() => undefined);
      await exited;
    },
  };
}

/** A fresh PostgreSQL test database with every migration run; `close` destroys the connection and drops it. */
export interface MigratedDatabase {
  url: string;
  dataSource: DataSource;
  close(): Promise<void>;
}

export async function openMigratedDatabase(): Promise<MigratedDatabase> {
  const db = await createTestDatabase();
  const dataSource = createDataSource({ url: db.url, dataDir: '', entities: [] });
  await dataSource.initialize();
  await migrate(dataSource);
  return {
    url: db.url,
    dataSource,
    close: async () => {
      await dataSource.destroy();
      await db.drop();
    },
  };
}
