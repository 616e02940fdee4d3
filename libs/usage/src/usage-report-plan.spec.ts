import { planUsageReport, rollupTable, wholeDays } from './usage-report-plan';

const at = (text: string): Date => new Date(text);

describe('usage report plan', () => {
  it('finds the whole UTC days inside a range, none when it cuts through one day', () => {
    expect(wholeDays(at('2026-11-01T09:30:00Z'), at('2026-11-04T12:00:00Z'))).toEqual({ first: '2026-11-02', end: '2026-11-04' });
    expect(wholeDays(at('2026-11-01T00:00:00Z'), at('2026-11-03T00:00:00Z'))).toEqual({ first: '2026-11-01', end: '2026-11-03' });
    expect(wholeDays(at('2026-11-01T09:00:00Z'), at('2026-11-01T18:00:00Z'))).toBeUndefined();
  });

  it('reads rolled days from the rollup and the partial days, gaps and today raw', () => {
    const from = at('2026-11-01T09:30:00Z');
    const to = at('2026-11-06T12:00:00Z');
    expect(planUsageReport(from, to, ['2026-11-02', '2026-11-04'])).toEqual({
      rolledDays: ['2026-11-02', '2026-11-04'],
      rolledHours: [],
      rawRanges: [
        { from, to: at('2026-11-02T00:00:00Z') },
        { from: at('2026-11-03T00:00:00Z'), to: at('2026-11-04T00:00:00Z') },
        { from: at('2026-11-05T00:00:00Z'), to },
      ],
    });
  });

  it('needs no raw range when rolled days cover the range exactly, and only raw without any', () => {
    const from = at('2026-11-01T00:00:00Z');
    const to = at('2026-11-03T00:00:00Z');
    expect(planUsageReport(from, to, ['2026-11-01', '2026-11-02'])).toEqual({ rolledDays: ['2026-11-01', '2026-11-02'], rolledHours: [], rawRanges: [] });
    expect(planUsageReport(from, to, [])).toEqual({ rolledDays: [], rolledHours: [], rawRanges: [{ from, to }] });
  });

  it('reads closed hours outside rolled days from the hourly rollup, leaving the hour in progress and gaps raw', () => {
    const from = at('2026-11-27T22:30:00Z');
    const to = at('2026-11-29T03:20:00Z');
    const hours = ['2026-11-27T23:00:00Z', '2026-11-28T05:00:00Z', '2026-11-29T00:00:00Z', '2026-11-29T02:00:00Z'].map(at);
    expect(planUsageReport(from, to, ['2026-11-28'], hours)).toEqual({
      rolledDays: ['2026-11-28'],
      // 05:00 on the 28th is inside the rolled day: the day answers for it.
      rolledHours: [at('2026-11-27T23:00:00Z'), at('2026-11-29T00:00:00Z'), at('2026-11-29T02:00:00Z')],
      rawRanges: [
        { from, to: at('2026-11-27T23:00:00Z') },
        { from: at('2026-11-29T01:00:00Z'), to: at('2026-11-29T02:00:00Z') },
        { from: at('2026-11-29T03:00:00Z'), to },
      ],
    });
  });

  it('reads a report by hour from rolled hours alone when no day is planned', () => {
    const from = at('2026-11-29T00:00:00Z');
    const to = at('2026-11-29T02:00:00Z');
    expect(planUsageReport(from, to, [], [at('2026-11-29T00:00:00Z'), at('2026-11-29T01:00:00Z')])).toEqual({
      rolledDays: [],
      rolledHours: [at('2026-11-29T00:00:00Z'), at('2026-11-29T01:00:00Z')],
      rawRanges: [],
    });
  });

  it('reads the smallest copy of a rollup that holds every dimension grouped or filtered by', () => {
    const range = { from: at('2026-11-01T00:00:00Z'), to: at('2026-11-08T00:00:00Z') };
    const table = (filter: Partial<Parameters<typeof rollupTable>[1]>): string => rollupTable('request_log_daily', { ...range, groupBy: [], ...filter });
    expect(table({ groupBy: ['day'] })).toBe('request_log_daily_models');
    expect(table({ groupBy: ['model', 'day'] })).toBe('request_log_daily_models');
    expect(table({ groupBy: ['provider'] })).toBe('request_log_daily_models');
    expect(table({ groupBy: ['key'] })).toBe('request_log_daily_keys');
    expect(table({ groupBy: ['team', 'day'] })).toBe('request_log_daily_keys');
    expect(table({ groupBy: ['hour'], apiKeyId: 'k' })).toBe('request_log_daily_keys');
    expect(table({ groupBy: ['model'], teamId: 't' })).toBe('request_log_daily');
    expect(table({ groupBy: ['day', 'key', 'model'] })).toBe('request_log_daily');
  });
});
