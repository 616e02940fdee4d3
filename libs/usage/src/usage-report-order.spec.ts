import { groupedSql, groupKey, isLedByDay, keyItems, pageStart, reportOrder } from './usage-report-order';
import { dayRuns } from './usage-report-query';
import type { UsageReportRow } from './usage-report';

const KEY = '0b6f3c52-8d0e-4c55-9d8b-1d2f3a4b5c6d';

/** A parameter list that shows each value where it is used. */
function params(): { param: (value: unknown) => string; values: unknown[] } {
  const values: unknown[] = [];
  return { values, param: (value) => `$${values.push(value)}` };
}

describe('the order of a usage report', () => {
  it('puts the time dimensions first, then the others as asked', () => {
    expect(reportOrder(['model', 'day', 'key'])).toEqual(['day', 'model', 'key']);
    expect(reportOrder(['tag', 'hour'])).toEqual(['hour', 'tag']);
    expect(isLedByDay(['key', 'day'])).toBe(true);
    expect(isLedByDay(['hour', 'day'])).toBe(false);
    expect(isLedByDay(['key', 'model'])).toBe(false);
  });

  it('keys the day and the hour so that they ascend as time descends', () => {
    expect(keyItems(['key', 'day', 'hour'], (d) => `v_${d}`)).toBe(
      "(DATE '2100-01-01' - v_day) AS day_key, (TIMESTAMP '2100-01-01' - v_hour) AS hour_key, v_key AS api_key_id",
    );
  });

  it('starts a page after a group: each later position, null last, as one condition and as ranges an index can start from', () => {
    const { param, values } = params();
    const day = "(DATE '2100-01-01' - $1::date)";
    const start = pageStart(['day', 'key', 'model'], ['2026-11-24', KEY, 'rosetta/gpt-4o-mini'], param);
    expect(start.ranges).toEqual([
      `day_key = ${day} AND api_key_id = $2::uuid AND served_model > $3::text`,
      `day_key = ${day} AND api_key_id = $2::uuid AND served_model IS NULL`,
      `day_key = ${day} AND api_key_id > $2::uuid`,
      `day_key = ${day} AND api_key_id IS NULL`,
      `day_key > ${day}`,
    ]);
    expect(start.any).toBe(`day_key >= ${day} AND (${start.ranges.map((range) => `(${range})`).join(' OR ')})`);
    expect(values).toEqual(['2026-11-24', KEY, 'rosetta/gpt-4o-mini']);
  });

  it('puts nothing after a null but what follows it in a later dimension', () => {
    const hour = "(TIMESTAMP '2100-01-01' - replace($1, 'Z', '')::timestamp)";
    const { param, values } = params();
    expect(pageStart(['hour', 'end_user', 'model'], ['2026-11-24T09:00:00Z', null, null], param)).toEqual({ any: `hour_key >= ${hour} AND ((hour_key > ${hour}))`, ranges: [`hour_key > ${hour}`] });
    expect(values).toEqual(['2026-11-24T09:00:00Z']);
    expect(pageStart(['end_user'], [null], params().param)).toEqual({ any: 'false', ranges: ['false'] });
    expect(pageStart(['end_user', 'tag'], [null, 'a'], params().param).ranges).toEqual(['end_user IS NULL AND tag > $1::text', 'end_user IS NULL AND tag IS NULL']);
  });

  it('reads a group position back from the answered row, in the report order', () => {
    const row = { served_model: null, day: '2026-11-24', api_key_id: KEY } as unknown as UsageReportRow;
    expect(groupKey(['model', 'day', 'key'], row)).toEqual(['2026-11-24', null, KEY]);
  });

  it('limits each part on its own only for a report led by the day, and starts an indexed part at each range', () => {
    const after = { any: 'ANY', ranges: ['R1', 'R2'] };
    const parts = [{ rows: 'SELECT a', sums: 'S', indexed: true }, { rows: 'SELECT b', sums: 'S' }];
    const part = (rows: string, cut: string, tail = ''): string => `(SELECT day_key, api_key_id, S FROM (${rows}) r WHERE ${cut} GROUP BY day_key, api_key_id${tail})`;
    const tail = ' ORDER BY day_key, api_key_id LIMIT $9';
    expect(groupedSql(['day', 'key'], parts, { limit: '$9', after })).toMatch(
      new RegExp(`^SELECT day_key, api_key_id, .* FROM \\(${escape([part('SELECT a', 'R1', tail), part('SELECT a', 'R2', tail), part('SELECT b', 'ANY', tail)].join(' UNION ALL '))}\\) src GROUP BY day_key, api_key_id${escape(tail)}$`),
    );
    expect(groupedSql(['key'], parts, { limit: '$9', after })).toMatch(/FROM \(\(SELECT api_key_id, S FROM \(SELECT a\) r WHERE ANY GROUP BY api_key_id\) UNION ALL .* src GROUP BY api_key_id ORDER BY api_key_id LIMIT \$9$/);
    expect(groupedSql(['key'], parts)).toMatch(/GROUP BY api_key_id\)\) src GROUP BY api_key_id$/);
  });

  it('splits days into runs of consecutive days', () => {
    expect(dayRuns(['2026-11-29', '2026-11-22', '2026-11-29', '2026-11-30', '2026-12-01', '2026-11-24'])).toEqual([
      ['2026-11-22', '2026-11-22'],
      ['2026-11-24', '2026-11-24'],
      ['2026-11-29', '2026-12-01'],
    ]);
    expect(dayRuns([])).toEqual([]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
