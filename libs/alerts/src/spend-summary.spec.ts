import type { UsageReportRow } from '@rosetta/usage';
import { lastClosedPeriod, periodLabel, spendSummary } from './spend-summary';

const DAY = 86_400_000;

function row(fields: Partial<UsageReportRow>): UsageReportRow {
  return { requests: 1, errors: 0, input_tokens: 0, output_tokens: 0, cached_tokens: 0, reasoning_tokens: 0, cost_usd: '0', cache_hits: 0, saved_usd: '0', ...fields };
}

describe('the daily spend summary', () => {
  it('summarises yesterday (UTC) once the grace after midnight has passed', () => {
    const grace = 5 * 60_000;
    expect(lastClosedPeriod(Date.parse('2026-11-29T00:06:00Z'), DAY, grace)).toEqual({ from: new Date('2026-11-28T00:00:00Z'), to: new Date('2026-11-29T00:00:00Z') });
    // Before the grace has passed, the last closed day is the day before yesterday (already sent).
    expect(lastClosedPeriod(Date.parse('2026-11-29T00:04:00Z'), DAY, grace)).toEqual({ from: new Date('2026-11-27T00:00:00Z'), to: new Date('2026-11-28T00:00:00Z') });
    expect(periodLabel(new Date('2026-11-28T00:00:00Z'), DAY)).toBe('2026-11-28');
    expect(periodLabel(new Date('2026-11-28T10:00:05Z'), 5_000)).toBe('2026-11-28T10:00:05.000Z');
  });

  it('adds the totals exactly and names the biggest keys, teams and models', () => {
    const summary = spendSummary(
      { from: new Date('2026-11-28T00:00:00Z'), to: new Date('2026-11-29T00:00:00Z'), label: '2026-11-28' },
      {
        keys: [row({ api_key_id: 'a', key_name: 'small', cost_usd: '0.1', requests: 3 }), row({ api_key_id: 'b', key_name: 'big', cost_usd: '0.2', requests: 2, errors: 1 })],
        teams: [row({ team_id: null, cost_usd: '0.1' }), row({ team_id: 't', team_name: 'research', cost_usd: '0.2' })],
        models: [row({ served_model: 'rosetta/gpt-4o-mini', cost_usd: '0.3', requests: 5 })],
      },
    );
    expect(summary).toEqual({
      label: '2026-11-28',
      from: new Date('2026-11-28T00:00:00Z'),
      to: new Date('2026-11-29T00:00:00Z'),
      costUsd: '0.3',
      requests: 5,
      errors: 1,
      topKeys: [
        { id: 'b', name: 'big', cost_usd: '0.2', requests: 2 },
        { id: 'a', name: 'small', cost_usd: '0.1', requests: 3 },
      ],
      topTeams: [{ id: 't', name: 'research', cost_usd: '0.2', requests: 1 }],
      topModels: [{ model: 'rosetta/gpt-4o-mini', cost_usd: '0.3', requests: 5 }],
    });
  });
});
