import { planUsageReport, wholeDays } from './usage-report-plan';

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
    expect(planUsageReport(from, to, ['2026-11-01', '2026-11-02'])).toEqual({ rolledDays: ['2026-11-01', '2026-11-02'], rawRanges: [] });
    expect(planUsageReport(from, to, [])).toEqual({ rolledDays: [], rawRanges: [{ from, to }] });
  });
});
