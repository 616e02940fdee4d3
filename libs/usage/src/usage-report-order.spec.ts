import { afterSql, groupedSql, groupKey, isLedByDay, keyItems, reportOrder } from './usage-report-order';
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

  it('continues after a group: each later position, null last, with a bound an index can start from', () => {
    const { param, values } = params();
    expect(afterSql(['day', 'key', 'model'], ['2026-11-24', KEY, 'rosetta/gpt-4o-mini'], param)).toBe(
      "day_key >= (DATE '2100-01-01' - $1::date) AND (" +
        "(day_key > (DATE '2100-01-01' - $1::date)) OR " +
        "(day_key = (DATE '2100-01-01' - $1::date) AND (api_key_id > $2::uuid OR api_key_id IS NULL)) OR " +
        "(day_key = (DATE '2100-01-01' - $1::date) AND api_key_id = $2::uuid AND (served_model > $3::text OR served_model IS NULL)))",
    );
    expect(values).toEqual(['2026-11-24', KEY, 'rosetta/gpt-4o-mini']);
  });

  it('puts nothing after a null but what follows it in a later dimension', () => {
    const { param, values } = params();
    expect(afterSql(['hour', 'end_user', 'model'], ['2026-11-24T09:00:00Z', null, null], param)).toBe(
      "hour_key >= (TIMESTAMP '2100-01-01' - replace($1, 'Z', '')::timestamp) AND ((hour_key > (TIMESTAMP '2100-01-01' - replace($1, 'Z', '')::timestamp)))",
    );
    expect(values).toEqual(['2026-11-24T09:00:00Z']);
    expect(afterSql(['end_user'], [null], params().param)).toBe('false');
    expect(afterSql(['end_user', 'tag'], [null, 'a'], params().param)).toBe('((end_user IS NULL AND (tag > $1::text OR tag IS NULL)))');
  });

  it('reads a group position back from the answered row, in the report order', () => {
    const row = { served_model: null, day: '2026-11-24', api_key_id: KEY } as unknown as UsageReportRow;
    expect(groupKey(['model', 'day', 'key'], row)).toEqual(['2026-11-24', null, KEY]);
  });

  it('limits each part on its own only for a report led by the day, whose parts are indexed in its order', () => {
    const parts = [{ rows: 'SELECT a', sums: 'S' }];
    expect(groupedSql(['day', 'key'], parts, { limit: '$9', after: 'X' })).toMatch(
      /^SELECT day_key, api_key_id, .* FROM \(\(SELECT day_key, api_key_id, S FROM \(SELECT a\) r WHERE X GROUP BY day_key, api_key_id ORDER BY day_key, api_key_id LIMIT \$9\)\) src GROUP BY day_key, api_key_id ORDER BY day_key, api_key_id LIMIT \$9$/,
    );
    expect(groupedSql(['key'], parts, { limit: '$9' })).toMatch(/^SELECT api_key_id, .* FROM \(\(SELECT api_key_id, S FROM \(SELECT a\) r GROUP BY api_key_id\)\) src GROUP BY api_key_id ORDER BY api_key_id LIMIT \$9$/);
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
