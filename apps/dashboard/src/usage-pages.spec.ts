import { afterEach, describe, expect, it } from '@jest/globals';
import { getWholeUsage, USAGE_GROUP_CAP } from './usage-pages';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** A gateway answering a report of `groups` groups in pages of the size asked; records the paths asked. */
function gateway(groups: number): string[] {
  const asked: string[] = [];
  globalThis.fetch = (async (path: string) => {
    asked.push(path);
    const url = new URL(path, 'http://dashboard');
    const limit = Number(url.searchParams.get('limit'));
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const end = Math.min(groups, start + limit);
    const data = Array.from({ length: end - start }, (_, i) => ({ api_key_id: `k${start + i}`, requests: 1, cost_usd: '0' }));
    const body = { from: 'f', to: 't', group_by: ['key'], data, totals: { requests: groups }, has_more: end < groups, next_cursor: end < groups ? String(end) : null };
    return new Response(JSON.stringify(body), { status: 200 });
  }) as typeof fetch;
  return asked;
}

describe("the Usage page's reports", () => {
  it('puts every page of a report together, the largest pages first asked with the report, then by cursor alone', async () => {
    const asked = gateway(23_456);
    const report = await getWholeUsage('/admin/usage?group_by=key&from=f&to=t');
    expect(report.data.map((row) => row.api_key_id)).toEqual(Array.from({ length: 23_456 }, (_, i) => `k${i}`));
    expect(report).toMatchObject({ complete: true, has_more: false, next_cursor: null, totals: { requests: 23_456 } });
    expect(asked).toEqual(['/admin/usage?group_by=key&from=f&to=t&limit=10000', '/admin/usage?cursor=10000&limit=10000', '/admin/usage?cursor=20000&limit=10000']);
  });

  it('stops at the cap and says the report goes on', async () => {
    const asked = gateway(120_000);
    const report = await getWholeUsage('/admin/usage?group_by=end_user');
    expect(report.data).toHaveLength(USAGE_GROUP_CAP);
    expect(report).toMatchObject({ complete: false, has_more: true, next_cursor: String(USAGE_GROUP_CAP) });
    expect(asked).toHaveLength(USAGE_GROUP_CAP / 10_000);
  });
});
