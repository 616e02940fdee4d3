import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerHoursRepository, LedgerRollupRepository, UsageReportRepository, type UsageReportFilter, type UsageReportRow } from '@rosetta/usage';
import type { DataSource } from 'typeorm';
import { ledgerOn, openMigratedDatabase, type MigratedDatabase, seedLedger, startPglitePeer, type Ledger, type LedgerDb } from './support/ledger-db';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const KEYS = [randomUUID(), randomUUID()];
const TEAMS = [randomUUID()];

/** Reports that cut through hours and days, by every dimension and by hour, over the last 30 hours. */
function hourCases(now: Date): UsageReportFilter[] {
  const cut = { from: new Date(now.getTime() - 29.6 * HOUR), to: now };
  const whole = { from: new Date(Math.floor(now.getTime() / HOUR) * HOUR - 20 * HOUR), to: new Date(Math.floor(now.getTime() / HOUR) * HOUR) };
  const groupings: UsageReportFilter['groupBy'][] = [['hour'], ['day'], ['key'], ['team', 'provider'], ['day', 'key', 'model'], ['hour', 'model']];
  return [...groupings.map((groupBy) => ({ ...cut, groupBy })), ...groupings.map((groupBy) => ({ ...whole, groupBy })), { ...cut, groupBy: ['hour'], apiKeyId: KEYS[0]! }];
}

async function answers(reports: Ledger['reports'], now: Date): Promise<UsageReportRow[][]> {
  const out: UsageReportRow[][] = [];
  for (const filter of hourCases(now)) out.push(await reports.report(filter));
  return out;
}

const requests = (rows: UsageReportRow[]): number => rows.reduce((sum, row) => sum + row.requests, 0);
const hourOf = (instant: Date): Date => new Date(Math.floor(instant.getTime() / HOUR) * HOUR);

/** The same reports read from the raw rows alone (no day or hour planned from a rollup): the oracle. */
function rawOnly(dataSource: DataSource): Ledger['reports'] {
  const none = async (): Promise<never[]> => [];
  return new UsageReportRepository(dataSource, { rolledDays: none } as unknown as LedgerRollupRepository, { rolledHours: none } as unknown as LedgerHoursRepository);
}

/** 1,500 rows over the 30 hours up to `now`, the hour in progress included. */
async function seedHours(db: LedgerDb, now: Date, prefix: string): Promise<void> {
  await seedLedger(db, { prefix, count: 1500, start: new Date(now.getTime() - 30 * HOUR), stepSeconds: (30 * 3600) / 1500 - 0.01, keys: KEYS, teams: TEAMS });
}

/**
 * The hourly rollup (decision 0027's amendment): closed hours of the last days rolled up so a
 * report reads live only the hour in progress, answering exactly what the raw rows do — late rows,
 * a row landing in a rolled hour, the hours forgotten after eight days — on PostgreSQL and PGlite.
 */
describe('ledger hourly rollup', () => {
  describe('on PostgreSQL', () => {
    let db: MigratedDatabase;
    let dataSource: DataSource;

    beforeAll(async () => {
      db = await openMigratedDatabase();
      dataSource = db.dataSource;
    });
    afterAll(() => db?.close());

    it('rolls up every closed hour of the last eight days and answers every report as the raw rows do', async () => {
      const now = new Date();
      await seedHours(dataSource, now, 'req_h');
      const { maintenance, reports } = ledgerOn(dataSource);
      const raw = await answers(reports, now);
      expect(await answers(rawOnly(dataSource), now)).toEqual(raw);

      const run = await maintenance.run(now);
      // From the hour eight days before this one up to the last hour closed five minutes ago.
      const closed = hourOf(new Date(now.getTime() - 5 * 60_000));
      const first = new Date(hourOf(now).getTime() - 8 * DAY);
      expect(run?.hours).toHaveLength((closed.getTime() - first.getTime()) / HOUR);
      expect(run?.hours[0]).toBe(first.toISOString());
      const [state] = (await dataSource.query('SELECT count(*)::int AS hours, count(*) FILTER (WHERE NOT rolled)::int AS stale FROM request_log_hours WHERE hour < $1', [closed])) as [
        { hours: number; stale: number },
      ];
      expect(state).toEqual({ hours: run!.hours.length, stale: 0 });
      expect(await answers(reports, now)).toEqual(raw);
      expect((await maintenance.run(now))?.hours).toEqual([]);

      // A report over closed hours reads their rollup, not their rows: a row removed by hand from a
      // rolled hour still counts until that hour is rolled up again.
      const twoHoursAgo = new Date(hourOf(now).getTime() - 2 * HOUR);
      const range = { from: twoHoursAgo, to: new Date(twoHoursAgo.getTime() + HOUR), groupBy: ['hour'] as UsageReportFilter['groupBy'] };
      const before = requests(await reports.report(range));
      await dataSource.query("DELETE FROM request_log WHERE request_id = (SELECT request_id FROM request_log WHERE created_at >= $1 AND created_at < $2 AND request_id LIKE 'req_h%' LIMIT 1)", [range.from, range.to]);
      expect(requests(await reports.report(range))).toBe(before);
      await new LedgerHoursRepository(dataSource).rollHour(twoHoursAgo);
      expect(requests(await reports.report(range))).toBe(before - 1);
    });

    it('reads a rolled hour that a late row made stale from its rows, at once, until the next run rolls it again', async () => {
      const now = new Date();
      const { maintenance, reports } = ledgerOn(dataSource);
      await maintenance.run(now);
      const settled = await answers(reports, now);
      const late = new Date(hourOf(now).getTime() - 3 * HOUR + 60_000);
      await seedLedger(dataSource, { prefix: 'req_hl', count: 2, start: late, stepSeconds: 1, keys: KEYS, teams: TEAMS });
      expect(await dataSource.query('SELECT rolled FROM request_log_hours WHERE hour = $1', [hourOf(late)])).toEqual([{ rolled: false }]);
      const withLate = await answers(reports, now);
      expect(withLate).not.toEqual(settled);
      expect(withLate).toEqual(await answers(rawOnly(dataSource), now));

      // Planned from a stale view (the hour went stale between the plan and the statement): the
      // statement's own check reads that hour from its rows.
      const everyHour = async (from: Date, to: Date): Promise<Date[]> =>
        Array.from({ length: Math.floor((to.getTime() - Math.ceil(from.getTime() / HOUR) * HOUR) / HOUR) }, (_, i) => new Date(Math.ceil(from.getTime() / HOUR) * HOUR + i * HOUR));
      const stalePlan = new UsageReportRepository(dataSource, new LedgerRollupRepository(dataSource), { rolledHours: everyHour } as unknown as LedgerHoursRepository);
      const planned: UsageReportRow[][] = [];
      for (const filter of hourCases(now)) planned.push(await stalePlan.report(filter));
      expect(planned).toEqual(withLate);

      expect((await maintenance.run(now))?.hours).toEqual([hourOf(late).toISOString()]);
      expect(await answers(reports, now)).toEqual(withLate);
    });

    it('leaves the hour in progress to the raw rows: its rows touch no hour state', async () => {
      const now = new Date();
      await seedLedger(dataSource, { prefix: 'req_hn', count: 3, start: now, stepSeconds: 0.001, keys: KEYS, teams: TEAMS });
      expect(await dataSource.query('SELECT count(*)::int AS n FROM request_log_hours WHERE hour >= $1', [hourOf(now)])).toEqual([{ n: 0 }]);
    });

    it('forgets hours older than eight days, rollup and state, while every report still answers from the daily rollup and the rows', async () => {
      const now = new Date();
      const { maintenance, reports } = ledgerOn(dataSource);
      const later = new Date(now.getTime() + 9 * DAY);
      const cases: UsageReportFilter[] = [
        { from: new Date(now.getTime() - 29.6 * HOUR), to: later, groupBy: ['day', 'key', 'model'] },
        { from: new Date(now.getTime() - 29.6 * HOUR), to: later, groupBy: ['hour'] },
      ];
      const before = await Promise.all(cases.map((filter) => reports.report(filter)));
      await maintenance.run(later);
      const [oldest] = (await dataSource.query('SELECT min(hour) AS hour FROM request_log_hours')) as [{ hour: Date }];
      expect(oldest.hour).toEqual(new Date(hourOf(later).getTime() - 8 * DAY));
      expect(await dataSource.query('SELECT count(*)::int AS n FROM request_log_hourly WHERE hour < $1', [oldest.hour])).toEqual([{ n: 0 }]);
      expect(await Promise.all(cases.map((filter) => reports.report(filter)))).toEqual(before);
    });
  });

  it('rolls up hours and answers the same on embedded PGlite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rosetta-ledger-hours-'));
    const peer = await startPglitePeer(dir);
    try {
      const now = new Date();
      await seedHours(peer.db, now, 'req_ph');
      const raw = await answers(peer.reports, now);
      expect((await peer.maintenance.run(now))?.hours.length).toBeGreaterThanOrEqual(8 * 24 - 1);
      expect(await answers(peer.reports, now)).toEqual(raw);
      // A late row for a rolled hour: PGlite's trigger marks it stale like PostgreSQL's.
      const late = new Date(hourOf(now).getTime() - 2 * HOUR);
      await seedLedger(peer.db, { prefix: 'req_phl', count: 1, start: late, stepSeconds: 1, keys: KEYS, teams: TEAMS });
      expect(await peer.db.query('SELECT rolled FROM request_log_hours WHERE hour = $1', [late.toISOString()])).toEqual([{ rolled: false }]);
      expect(requests(await peer.reports.report(hourCases(now)[0]!))).toBe(requests(raw[0]!) + 1);
    } finally {
      await peer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
