import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataSource, ledgerMonthsAhead, migrate, MIGRATIONS } from '@rosetta/persistence';
import { LedgerHoursRepository, UsageReportRepository, UsageRepository, type LedgerRollupRepository, type UsageReportRow } from '@rosetta/usage';
import { DataSource } from 'typeorm';
import { ledgerOn, openMigratedDatabase, type MigratedDatabase, partitionNames, reportCases, seedLedger, startPglitePeer, type Ledger } from './support/ledger-db';
import { createTestDatabase } from './support/services';

const DAY = 86_400_000;
const KEYS = [randomUUID(), randomUUID()];
const TEAMS = [randomUUID()];

/** Every report case answered now, in order. */
async function allReports(reports: Ledger['reports'], now: Date): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const filter of reportCases(now, KEYS[0]!, TEAMS[0]!)) answers.push(await reports.report(filter));
  return answers;
}

const requests = (rows: UsageReportRow[]): number => rows.reduce((sum, row) => sum + row.requests, 0);

/**
 * The partitioned ledger (ARCHITECTURE §9, decision 0027) on real PostgreSQL and on embedded
 * PGlite: partitions created ahead and for caught rows, the daily rollup answering exactly what
 * the raw rows do (partial days, late rows), retention dropping whole months while usage and
 * budgets' spend keep them, and the upgrade of a filled, unpartitioned ledger.
 */
describe('ledger partitions, rollups and retention', () => {
  describe('on PostgreSQL', () => {
    let db: MigratedDatabase;
    let dataSource: DataSource;

    beforeAll(async () => {
      db = await openMigratedDatabase();
      dataSource = db.dataSource;
    });
    afterAll(() => db?.close());

    it('gets this month and the next two from the migration, then more ahead as months pass, and a month for rows the default partition caught', async () => {
      const now = new Date();
      const month = (offset: number): string => {
        const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
        return `request_log_${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
      };
      expect(await partitionNames(dataSource)).toEqual([month(0), month(1), month(2), 'request_log_default']);

      // A row far from any partition lands in the default one, and is moved into its month's.
      await dataSource.query("INSERT INTO request_log (request_id, dialect, status, latency_ms, streamed, created_at) VALUES ('req_caught', 'openai', 200, 1, false, '2025-03-14T10:00:00Z')");
      const { maintenance } = ledgerOn(dataSource);
      const later = new Date(now.getTime() + 62 * DAY);
      const ahead = ledgerMonthsAhead(later, 2).map((m) => m.name).filter((name) => ![month(0), month(1), month(2)].includes(name));
      expect((await maintenance.run(later))?.created).toEqual([...ahead, 'request_log_2025_03']);
      expect(await dataSource.query("SELECT tableoid::regclass::text AS part FROM request_log WHERE request_id = 'req_caught'")).toEqual([{ part: 'request_log_2025_03' }]);
      expect(await dataSource.query('SELECT count(*)::int AS n FROM request_log_default')).toEqual([{ n: 0 }]);
      expect((await maintenance.run(later))?.created).toEqual([]);

      // While another replica holds the maintenance lock, a run does nothing and says so.
      const other = dataSource.createQueryRunner();
      await other.query('SELECT pg_advisory_lock(7152030)');
      expect(await maintenance.run()).toBeUndefined();
      await other.query('SELECT pg_advisory_unlock(7152030)');
      await other.release();
      expect(await maintenance.run()).toEqual({ created: [], rolled: expect.any(Array), dropped: [], hours: expect.any(Array) });
      // Runs "two months on" rolled up days still to come: start the next test from a clean slate.
      await dataSource.query('DROP TABLE request_log_2025_03');
      await dataSource.query('TRUNCATE request_log_days, request_log_daily, request_log_hours, request_log_hourly');
    });

    it('answers every report from the rollup exactly as from the raw rows, partial days, today and a late row included', async () => {
      const now = new Date();
      await seedLedger(dataSource, { prefix: 'req_r', count: 6000, start: new Date(now.getTime() - 6 * DAY), stepSeconds: 6 * 86_400 / 6000, keys: KEYS, teams: TEAMS });
      const { maintenance, reports } = ledgerOn(dataSource);
      const raw = await allReports(reports, now);

      const run = await maintenance.run(now);
      expect(run?.rolled.length).toBeGreaterThanOrEqual(6);
      const [rollup] = (await dataSource.query('SELECT count(*)::int AS n FROM request_log_daily')) as [{ n: number }];
      expect(rollup.n).toBeGreaterThan(0);
      expect(await allReports(reports, now)).toEqual(raw);

      // A row lands for a day already rolled up: the day reads raw until it is rolled again.
      const yesterday = new Date(now.getTime() - DAY);
      await seedLedger(dataSource, { prefix: 'req_late', count: 3, start: yesterday, stepSeconds: 1, keys: KEYS, teams: TEAMS });
      const withLate = await allReports(reports, now);
      expect(withLate).not.toEqual(raw);
      expect(await dataSource.query("SELECT rolled FROM request_log_days WHERE day = ($1::timestamptz AT TIME ZONE 'UTC')::date", [yesterday])).toEqual([{ rolled: false }]);
      // Planned from a stale view (the day went stale between the plan and the statement): the
      // statement's own check reads that day from its rows.
      const everyDay = async (first: string, end: string): Promise<string[]> =>
        Array.from({ length: (Date.parse(end) - Date.parse(first)) / DAY }, (_, i) => new Date(Date.parse(first) + i * DAY).toISOString().slice(0, 10));
      const stalePlan = new UsageReportRepository(dataSource, { rolledDays: everyDay } as unknown as LedgerRollupRepository, new LedgerHoursRepository(dataSource));
      const answers: unknown[] = [];
      for (const filter of reportCases(now, KEYS[0]!, TEAMS[0]!)) answers.push(await stalePlan.report(filter));
      expect(answers).toEqual(withLate);
      expect((await maintenance.run(now))?.rolled).toEqual([yesterday.toISOString().slice(0, 10)]);
      expect(await allReports(reports, now)).toEqual(withLate);
    });

    it('drops whole months older than LEDGER_RETENTION_DAYS once rolled up; usage and budgets still count them', async () => {
      const key = randomUUID();
      await seedLedger(dataSource, { prefix: 'req_old', count: 300, start: new Date('2026-02-03T05:00:00Z'), stepSeconds: 3600, keys: [key], teams: [] });
      const usage = new UsageRepository(dataSource);
      const spent = await usage.spentSince('key', key, new Date(0));
      const { maintenance, reports } = ledgerOn(dataSource, 30);
      const february = { from: new Date('2026-02-01T00:00:00Z'), to: new Date('2026-03-01T00:00:00Z') };
      const byDay = await reports.report({ ...february, groupBy: ['day', 'model'] });

      const run = await maintenance.run(new Date());
      expect(run?.created).toEqual(['request_log_2026_02']);
      expect(run?.dropped).toEqual(['request_log_2026_02']);
      expect(await partitionNames(dataSource)).not.toContain('request_log_2026_02');
      expect(await dataSource.query('SELECT count(*)::int AS n FROM request_log WHERE api_key_id = $1', [key])).toEqual([{ n: 0 }]);
      expect(await reports.report({ ...february, groupBy: ['day', 'model'] })).toEqual(byDay);
      expect(await usage.spentSince('key', key, new Date(0))).toBe(spent);
      expect(spent).toBeGreaterThan(0);

      // A row written for a dropped month afterwards (by hand: the gateway's never are that old)
      // is added to its day's rollup and counted once, however often maintenance runs.
      await seedLedger(dataSource, { prefix: 'req_after', count: 1, start: new Date('2026-02-03T05:30:00Z'), stepSeconds: 1, keys: [key], teams: [] });
      await maintenance.run(new Date());
      await maintenance.run(new Date());
      expect(requests(await reports.report({ ...february, groupBy: ['key'] }))).toBe(301);
    });
  });

  it('upgrades a filled, unpartitioned ledger: rows kept as request_log_legacy, reports and lookups unchanged', async () => {
    const db = await createTestDatabase();
    const upTo = MIGRATIONS.findIndex((m) => m.name === 'ResponseCache1733600000000');
    const before = new DataSource({ type: 'postgres', url: db.url, migrations: MIGRATIONS.slice(0, upTo + 1) });
    await before.initialize();
    await before.runMigrations({ transaction: 'each' });
    const now = new Date();
    await seedLedger(before, { prefix: 'req_u', count: 2000, start: new Date(now.getTime() - 5 * DAY), stepSeconds: 5 * 86_400 / 2000, keys: KEYS, teams: TEAMS });
    const summary = 'SELECT count(*)::int AS n, sum(cost_usd)::text AS cost, sum(cache_read_tokens)::int AS reads, max(request_id) AS last FROM request_log';
    const rowsBefore = await before.query(summary);
    await before.destroy();

    const after = createDataSource({ url: db.url, dataDir: '', entities: [] });
    await after.initialize();
    try {
      // These two, then whatever came after them (their order is what matters here).
      expect((await migrate(after)).slice(0, 2)).toEqual(['LedgerPartitions1733700000000', 'LedgerDailyRollup1733710000000']);
      expect(await after.query(summary)).toEqual(rowsBefore);
      expect((await partitionNames(after)).filter((name) => name.startsWith('request_log_legacy') || name === 'request_log_default')).toEqual(['request_log_default', 'request_log_legacy']);
      // The old indexes serve the legacy partition; none was built twice.
      const indexes = (await after.query("SELECT count(*)::int AS n FROM pg_index WHERE indrelid = 'request_log_legacy'::regclass")) as [{ n: number }];
      // Eight of the partitioning's, and attribution's end-user and tags indexes (migration 1733810000000).
      expect(indexes[0].n).toBe(10);
      const { maintenance, reports } = ledgerOn(after);
      const raw = await allReports(reports, now);
      await maintenance.run(now);
      expect(await allReports(reports, now)).toEqual(raw);
      const usage = new UsageRepository(after);
      expect(await usage.find('req_u7')).toEqual(expect.objectContaining({ request_id: 'req_u7', dialect: 'openai' }));
      // A retried row (same id, same start time) is still written once.
      const [row] = (await after.query("SELECT created_at FROM request_log WHERE request_id = 'req_u7'")) as [{ created_at: Date }];
      await after.query("INSERT INTO request_log (request_id, dialect, status, latency_ms, streamed, created_at) VALUES ('req_u7', 'openai', 200, 1, false, $1) ON CONFLICT (request_id, created_at) DO NOTHING", [row.created_at]);
      expect(await after.query("SELECT count(*)::int AS n FROM request_log WHERE request_id = 'req_u7'")).toEqual([{ n: 1 }]);
    } finally {
      await after.destroy();
      await db.drop();
    }
  });

  it('partitions, rolls up and answers the same on embedded PGlite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rosetta-ledger-pglite-'));
    const peer = await startPglitePeer(dir);
    try {
      const now = new Date();
      expect(await partitionNames(peer.db)).toEqual([...ledgerMonthsAhead(now, 2).map((m) => m.name), 'request_log_default']);
      await seedLedger(peer.db, { prefix: 'req_p', count: 1500, start: new Date(now.getTime() - 4 * DAY), stepSeconds: 4 * 86_400 / 1500, keys: KEYS, teams: TEAMS });
      const raw = await allReports(peer.reports, now);
      expect((await peer.maintenance.run(now))?.rolled.length).toBeGreaterThanOrEqual(4);
      expect(await allReports(peer.reports, now)).toEqual(raw);
      // A late row for a rolled day: PGlite's trigger marks it stale like PostgreSQL's.
      await seedLedger(peer.db, { prefix: 'req_pl', count: 2, start: new Date(now.getTime() - 2 * DAY), stepSeconds: 1, keys: KEYS, teams: TEAMS });
      expect(requests(await peer.reports.report({ from: new Date(now.getTime() - 5 * DAY), to: now, groupBy: ['provider'] }))).toBe(1502);
    } finally {
      await peer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
