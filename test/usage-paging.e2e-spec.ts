import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AttributionReportRepository, LedgerRollupRepository, usageCsv, type AttributionReportFilter, type GroupKey, type UsageReportRow } from '@rosetta/usage';
import { adminCall, startGateway, TEST_ADMIN_TOKEN, type GatewayProcess } from './support/gateway-process';
import { attribute, ledgerOn, openMigratedDatabase, reportCases, seedLedger, startPglitePeer, type LedgerDb, type MigratedDatabase, type PagedReports } from './support/ledger-db';
import { createTestDatabase, query } from './support/services';

const DAY = 86_400_000;
const KEYS = [randomUUID(), randomUUID()];
const TEAMS = [randomUUID()];

/** Reports by end user and by tag, alone, led by the day or the hour, and with other dimensions. */
function attributionCases(now: Date): AttributionReportFilter[] {
  const cut = { from: new Date(now.getTime() - 4.6 * DAY), to: new Date(now.getTime() + 3_600_000) };
  const groupings: AttributionReportFilter['groupBy'][] = [['end_user'], ['tag'], ['day', 'end_user'], ['tag', 'model', 'day'], ['key', 'end_user'], ['hour', 'tag']];
  return [...groupings.map((groupBy) => ({ ...cut, groupBy })), { ...cut, groupBy: ['end_user', 'day'], apiKeyId: KEYS[0]! }];
}

/** Every page of a report, `limit` groups at a time, each continuing after the last. */
async function allPages<F>(reports: PagedReports<F>, filter: F, limit: number): Promise<UsageReportRow[]> {
  const rows: UsageReportRow[] = [];
  let after: GroupKey | undefined;
  do {
    const page = await reports.page(filter, { limit, ...(after ? { after } : {}) });
    expect(page.data.length).toBeLessThanOrEqual(limit);
    expect(page.next === null || page.data.length === limit).toBe(true);
    rows.push(...page.data);
    after = page.next ?? undefined;
  } while (after);
  return rows;
}

/** For every case: the pages, put together, are the whole report — each group once, in order. */
async function pagesMatchReports(reports: PagedReports, attribution: PagedReports<AttributionReportFilter>, now: Date): Promise<number> {
  let groups = 0;
  for (const filter of reportCases(now, KEYS[0]!, TEAMS[0]!)) {
    const whole = await reports.report(filter);
    expect({ filter, rows: await allPages(reports, filter, 7) }).toEqual({ filter, rows: whole });
    groups += whole.length;
  }
  for (const filter of attributionCases(now)) {
    const whole = await attribution.report(filter);
    expect({ filter, rows: await allPages(attribution, filter, 7) }).toEqual({ filter, rows: whole });
    groups += whole.length;
  }
  return groups;
}

/**
 * Paged usage reports (decision 0034): on PostgreSQL and embedded PGlite the pages of every report
 * put together equal the whole report, read from the rows, from the rollups and with a late row in
 * a rolled day; over HTTP, a cursor carries its report, rows landing between pages neither repeat
 * nor skip a group, a tampered cursor is a 400, and the CSV export is every page.
 */
describe('usage report pages', () => {
  describe('through the report repositories', () => {
    let db: MigratedDatabase;
    beforeAll(async () => {
      db = await openMigratedDatabase();
    });
    afterAll(() => db?.close());

    it('put together equal the whole report for every grouping, before and after the rollups, and with a late row', async () => {
      const now = new Date();
      await seedLedger(db.dataSource, { prefix: 'req_q', count: 1500, start: new Date(now.getTime() - 4.8 * DAY), stepSeconds: (4.8 * 86_400) / 1500, keys: KEYS, teams: TEAMS });
      await attribute(db.dataSource, 'req_q');
      const { maintenance, reports } = ledgerOn(db.dataSource);
      const attribution = new AttributionReportRepository(db.dataSource, new LedgerRollupRepository(db.dataSource));
      expect(await pagesMatchReports(reports, attribution, now)).toBeGreaterThan(700);
      expect((await maintenance.run(now))?.rolled.length).toBeGreaterThanOrEqual(4);
      await pagesMatchReports(reports, attribution, now);
      // A late row for a rolled day: that day is read from its rows, in the same order.
      await seedLedger(db.dataSource, { prefix: 'req_ql', count: 3, start: new Date(now.getTime() - 2 * DAY), stepSeconds: 1, keys: KEYS, teams: TEAMS });
      await pagesMatchReports(reports, attribution, now);
    });
  });

  it('put together equal the whole report on embedded PGlite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rosetta-paging-pglite-'));
    const peer = await startPglitePeer(dir);
    try {
      const now = new Date();
      await seedLedger(peer.db, { prefix: 'req_p', count: 800, start: new Date(now.getTime() - 4.8 * DAY), stepSeconds: (4.8 * 86_400) / 800, keys: KEYS, teams: TEAMS });
      await attribute(peer.db, 'req_p');
      await peer.maintenance.run(now);
      expect(await pagesMatchReports(peer.reports, peer.attribution, now)).toBeGreaterThan(500);
    } finally {
      await peer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('over HTTP', () => {
    let db: { url: string; drop(): Promise<void> };
    let gateway: GatewayProcess;
    let ledger: LedgerDb;
    let window: string;
    const base = (): string => `group_by=day,key,model&${window}`;
    const get = (search: string) => adminCall(gateway, 'GET', `/admin/usage?${search}`);

    beforeAll(async () => {
      db = await createTestDatabase();
      gateway = await startGateway({ DATABASE_URL: db.url });
      ledger = { query: (sql: string, params?: unknown[]) => query(db.url, sql, params) };
      const now = Date.now();
      await seedLedger(ledger, { prefix: 'req_h', count: 600, start: new Date(now - 4.4 * DAY), stepSeconds: (4.3 * 86_400) / 600, keys: KEYS, teams: TEAMS });
      window = `from=${new Date(now - 4.5 * DAY).toISOString()}&to=${new Date(now + DAY).toISOString()}`;
    });
    afterAll(async () => {
      await gateway?.stop();
      await db?.drop();
    });

    /** The pages after `first`, each asked for by its cursor alone. */
    async function rest(first: { body: any }, limit: number, between?: () => Promise<void>): Promise<any[]> {
      const pages = [first.body];
      for (let page = first.body; page.next_cursor !== null; ) {
        if (pages.length === 2) await between?.();
        const next = await get(`cursor=${page.next_cursor}&limit=${limit}`);
        expect(next.status).toBe(200);
        pages.push((page = next.body));
      }
      return pages;
    }

    it('answer the default order a page at a time, each with the whole report\'s totals, the last with no cursor', async () => {
      const whole = await get(`${base()}&limit=10000`);
      expect(whole.body.has_more).toBe(false);
      expect(whole.body.data.length).toBeGreaterThan(25);
      const pages = await rest(await get(`${base()}&limit=6`), 6);
      expect(pages.flatMap((page) => page.data)).toEqual(whole.body.data);
      expect(pages.map((page) => page.has_more)).toEqual(pages.map((_, i) => i < pages.length - 1));
      for (const page of pages) {
        expect({ from: page.from, to: page.to, group_by: page.group_by, totals: page.totals }).toEqual({ from: whole.body.from, to: whole.body.to, group_by: ['day', 'key', 'model'], totals: whole.body.totals });
      }
      // Newest day first, then key and model ascending with null last.
      const days = whole.body.data.map((row: UsageReportRow) => row.day);
      expect(days).toEqual([...days].sort().reverse());
      const [count] = await query<{ n: number }>(
        db.url,
        `SELECT count(DISTINCT ((created_at AT TIME ZONE 'UTC')::date, api_key_id, served_model))::int AS n FROM request_log WHERE created_at >= $1 AND created_at < $2`,
        [whole.body.from, whole.body.to],
      );
      expect(whole.body.data).toHaveLength(count!.n);
    });

    it('neither repeat nor skip a group when rows land between pages, before the cursor or after it', async () => {
      const before = (await get(`${base()}&limit=10000`)).body;
      const first = await get(`${base()}&limit=5`);
      const firstDay = first.body.data[0].day as string;
      const oldest = before.data[before.data.length - 1] as UsageReportRow;
      // Inside the window and the oldest group's day: its first minute, or the window's.
      const lateAt = new Date(Math.max(Date.parse(`${oldest.day}T00:00:00Z`), Date.parse(before.from)) + 60_000).toISOString();
      const rows = await rest(first, 5, async () => {
        // A new group in a day already paged (its key sorts first): offset pages would shift by one.
        await ledger.query(
          "INSERT INTO request_log (request_id, api_key_id, dialect, status, latency_ms, streamed, created_at, cost_usd) VALUES ('req_new_group', '00000000-0000-4000-8000-000000000000', 'openai', 200, 1, false, $1, 0.5)",
          [`${firstDay}T12:00:00Z`],
        );
        // Three more requests for the oldest day's last group, not yet paged.
        for (const i of [1, 2, 3]) {
          await ledger.query(
            "INSERT INTO request_log (request_id, api_key_id, served_model, dialect, status, latency_ms, streamed, created_at, cost_usd) VALUES ($1, $2, $3, 'openai', 200, 1, false, $4, 0.25)",
            [`req_late_${i}`, oldest.api_key_id, oldest.served_model, lateAt],
          );
        }
      });
      const after = (await get(`${base()}&limit=10000`)).body;
      const paged = rows.flatMap((page) => page.data) as UsageReportRow[];
      expect(paged).toEqual(after.data.filter((row: UsageReportRow) => row.api_key_id !== '00000000-0000-4000-8000-000000000000'));
      expect(after.data).toHaveLength(before.data.length + 1);
      expect(paged[paged.length - 1]!.requests).toBe(oldest.requests + 3);
      expect(after.totals.requests).toBe(before.totals.requests + 4);
    });

    it('refuse a changed cursor, a cursor of another report and a bad limit with a 400 naming them', async () => {
      const cursor = (await get(`${base()}&limit=3`)).body.next_cursor as string;
      const changed = `${cursor.slice(0, 8)}${cursor[8] === 'x' ? 'y' : 'x'}${cursor.slice(9)}`;
      const cases: Array<[string, string, RegExp]> = [
        [`cursor=${changed}`, 'cursor', /^Invalid 'cursor': must be the next_cursor of a previous page, unchanged/],
        [`cursor=${cursor.slice(0, -1)}`, 'cursor', /^Invalid 'cursor'/],
        [`cursor=${cursor}&group_by=key`, 'cursor', /^Invalid 'cursor': it continues another report \(group_by differs\)/],
        [`cursor=${cursor}&format=csv`, 'cursor', /^Invalid 'cursor': the CSV export/],
        [`cursor=${cursor}&cursor=${cursor}`, 'cursor', /^Invalid 'cursor': give it once/],
        ['limit=0', 'limit', /^Invalid 'limit': must be a whole number from 1 to 10000, got '0'$/],
        ['limit=many', 'limit', /^Invalid 'limit'/],
        ['format=csv&limit=10', 'limit', /^Invalid 'limit': the CSV export/],
      ];
      for (const [search, param, message] of cases) {
        const res = await get(search);
        expect({ search, status: res.status, type: res.body.error?.type, param: res.body.error?.param, message: res.body.error?.message }).toEqual({
          search,
          status: 400,
          type: 'invalid_request_error',
          param,
          message: expect.stringMatching(message),
        });
      }
    });

    it('export every group as CSV, the same rows as the pages', async () => {
      const whole = (await get(`${base()}&limit=10000`)).body;
      const res = await fetch(`${gateway.url}/admin/usage?${base()}&format=csv`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(await res.text()).toBe(usageCsv(['day', 'key', 'model'], whole.data));
    });
  });
});

