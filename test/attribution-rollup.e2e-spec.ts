import { randomUUID } from 'node:crypto';
import { AttributionReportRepository, EndUserSpendRepository, LedgerRollupRepository, type AttributionReportFilter } from '@rosetta/usage';
import type { DataSource } from 'typeorm';
import { attribute, ledgerOn, openMigratedDatabase, type MigratedDatabase, seedLedger } from './support/ledger-db';

const DAY = 86_400_000;
const KEYS = [randomUUID(), randomUUID()];
const TEAMS = [randomUUID()];

/** Report filters by end user and by tag, alone and with other dimensions, over partial and whole days. */
function cases(now: Date): AttributionReportFilter[] {
  const midnight = new Date(Math.floor(now.getTime() / DAY) * DAY);
  const cut = { from: new Date(now.getTime() - 4.6 * DAY), to: new Date(now.getTime() + 3_600_000) };
  const whole = { from: new Date(midnight.getTime() - 4 * DAY), to: midnight };
  const groupings: AttributionReportFilter['groupBy'][] = [['end_user'], ['tag'], ['day', 'end_user'], ['tag', 'model', 'provider'], ['key', 'end_user', 'team'], ['hour', 'tag']];
  return [...groupings.map((groupBy) => ({ ...cut, groupBy })), ...groupings.map((groupBy) => ({ ...whole, groupBy })), { ...whole, groupBy: ['end_user', 'day'], apiKeyId: KEYS[0]! }];
}

/**
 * The attribution rollups (decision 0033) on real PostgreSQL: a report by end user or tag read
 * from the rollups equals the same report over the raw rows, and after retention drops a month the
 * rollups keep what its rows said, for reports and for an end user's spend (budget seeding).
 */
describe('attribution rollups', () => {
  let db: MigratedDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await openMigratedDatabase();
    dataSource = db.dataSource;
  });
  afterAll(() => db?.close());

  const all = async (reports: AttributionReportRepository, now: Date): Promise<unknown[]> => {
    const answers: unknown[] = [];
    for (const filter of cases(now)) answers.push(await reports.report(filter));
    return answers;
  };

  it('answers by end user and by tag from the rollups exactly as from the raw rows', async () => {
    const now = new Date();
    await seedLedger(dataSource, { prefix: 'req_a', count: 3000, start: new Date(now.getTime() - 6 * DAY), stepSeconds: (6 * 86_400) / 3000, keys: KEYS, teams: TEAMS });
    await attribute(dataSource, 'req_a');
    const raw = new AttributionReportRepository(dataSource, { rolledDays: async () => [] } as unknown as LedgerRollupRepository);
    const rolled = new AttributionReportRepository(dataSource, new LedgerRollupRepository(dataSource));
    const expected = await all(raw, now);
    expect((expected[1] as Array<{ tag: string | null }>).map((row) => row.tag).sort()).toEqual(['env=prod', 'team:search', null].sort());
    const run = await ledgerOn(dataSource).maintenance.run(now);
    expect(run?.rolled.length).toBeGreaterThanOrEqual(6);
    const [counts] = (await dataSource.query('SELECT (SELECT count(*) FROM request_log_daily_end_user)::int AS users, (SELECT count(*) FROM request_log_daily_tag)::int AS tags')) as [{ users: number; tags: number }];
    expect(counts.users).toBeGreaterThan(0);
    expect(counts.tags).toBeGreaterThan(0);
    expect(await all(rolled, now)).toEqual(expected);
  });

  it('keeps what a month said once retention drops its rows: reports, and an end user spend for its budget', async () => {
    const key = randomUUID();
    await seedLedger(dataSource, { prefix: 'req_old', count: 200, start: new Date('2026-02-03T05:00:00Z'), stepSeconds: 3600, keys: [key], teams: [] });
    await attribute(dataSource, 'req_old');
    const spend = new EndUserSpendRepository(dataSource);
    const spent = await spend.spentSince(key, 'alice', new Date(0));
    expect(spent).toBeGreaterThan(0);
    const reports = new AttributionReportRepository(dataSource, new LedgerRollupRepository(dataSource));
    const february = { from: new Date('2026-02-01T00:00:00Z'), to: new Date('2026-03-01T00:00:00Z'), apiKeyId: key };
    const before = [await reports.report({ ...february, groupBy: ['end_user'] }), await reports.report({ ...february, groupBy: ['tag', 'day'] })];

    const run = await ledgerOn(dataSource, 30).maintenance.run(new Date());
    expect(run?.dropped).toContain('request_log_2026_02');
    expect(await dataSource.query('SELECT count(*)::int AS n FROM request_log WHERE api_key_id = $1', [key])).toEqual([{ n: 0 }]);
    expect([await reports.report({ ...february, groupBy: ['end_user'] }), await reports.report({ ...february, groupBy: ['tag', 'day'] })]).toEqual(before);
    expect(await spend.spentSince(key, 'alice', new Date(0))).toBe(spent);
  });
});
