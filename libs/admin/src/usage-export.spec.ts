import type { GroupKey, ReportPageResult, UsageReportRow } from '@rosetta/usage';
import { exportPages, type ReadPage } from './usage-export';

const DAY = 86_400_000;

/** A report with `groupsOn(day)` groups on each UTC day, newest day first; records every read. */
function report(groupsOn: (day: string) => number): { read: ReadPage; reads: Array<{ from: string; to: string; after?: GroupKey }> } {
  const reads: Array<{ from: string; to: string; after?: GroupKey }> = [];
  const read: ReadPage = async (window, limit, after) => {
    reads.push({ from: window.from.toISOString(), to: window.to.toISOString(), ...(after ? { after } : {}) });
    const groups: GroupKey[] = [];
    for (let t = Math.ceil(window.to.getTime() / DAY) * DAY - DAY; t >= Math.floor(window.from.getTime() / DAY) * DAY; t -= DAY) {
      const day = new Date(t).toISOString().slice(0, 10);
      for (let i = 0; i < groupsOn(day); i++) groups.push([day, `k${String(i).padStart(3, '0')}`]);
    }
    const start = after ? groups.findIndex((g) => g[0] === after[0] && g[1] === after[1]) + 1 : 0;
    const page = groups.slice(start, start + limit);
    const result: ReportPageResult = { data: page.map(([day, key]) => ({ day, api_key_id: key }) as UsageReportRow), next: start + limit < groups.length ? page[page.length - 1]! : null };
    return result;
  };
  return { read, reads };
}

async function all(pages: AsyncGenerator<ReportPageResult>): Promise<string[]> {
  const rows: string[] = [];
  for await (const page of pages) rows.push(...page.data.map((row) => `${row.day}/${row.api_key_id}`));
  return rows;
}

describe('the CSV export of a usage report', () => {
  const range = { from: new Date('2026-11-01T06:00:00Z'), to: new Date('2026-11-11T12:00:00Z') };

  it('reads a report led by the day a window of whole days at a time, newest first, in pages inside a busy window', async () => {
    const { read, reads } = report(() => 5);
    const rows = await all(exportPages(['day', 'key'], range, 4, read));
    const expected: string[] = [];
    for (let d = 11; d >= 1; d--) for (let i = 0; i < 5; i++) expected.push(`2026-11-${String(d).padStart(2, '0')}/k00${i}`);
    expect(rows).toEqual(expected);
    // Every window is one day here (each fills a page), cut by the range at both ends.
    expect(reads.filter((r) => !r.after).map((r) => [r.from.slice(0, 13), r.to.slice(0, 13)])).toEqual([
      ['2026-11-11T00', '2026-11-11T12'],
      ...[10, 9, 8, 7, 6, 5, 4, 3, 2].map((d) => [`2026-11-${String(d).padStart(2, '0')}T00`, `2026-11-${String(d + 1).padStart(2, '0')}T00`]),
      ['2026-11-01T06', '2026-11-02T00'],
    ]);
  });

  it('doubles the window after one that ends short of a page, so a sparse report takes a few reads', async () => {
    const { read, reads } = report((day) => (day === '2026-11-03' ? 2 : 0));
    expect(await all(exportPages(['hour', 'key'], range, 100, read))).toEqual(['2026-11-03/k000', '2026-11-03/k001']);
    expect(reads.map((r) => [r.from.slice(0, 10), r.to.slice(0, 10)])).toEqual([
      ['2026-11-11', '2026-11-11'],
      ['2026-11-09', '2026-11-11'],
      ['2026-11-05', '2026-11-09'],
      ['2026-11-01', '2026-11-05'],
    ]);
  });

  it('reads a report in another order as pages of the whole range', async () => {
    const { read, reads } = report(() => 3);
    expect(await all(exportPages(['key', 'model'], range, 10, read))).toHaveLength(33);
    expect(reads.map((r) => [r.from, r.to])).toEqual(Array(4).fill([range.from.toISOString(), range.to.toISOString()]));
  });
});
