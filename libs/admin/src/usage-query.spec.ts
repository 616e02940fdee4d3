import { GatewayError } from '@rosetta/canonical';
import { parseUsageQuery } from './usage-query';

const NOW = new Date('2026-11-24T12:00:00Z');
const KEY = '0b6f3c52-8d0e-4c55-9d8b-1d2f3a4b5c6d';

function refusal(query: Record<string, unknown>): { param?: string; message: string } {
  try {
    parseUsageQuery(query, NOW);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    expect(error.status).toBe(400);
    return { param: error.param, message: error.message };
  }
  throw new Error('expected a 400');
}

describe('GET /admin/usage parameters', () => {
  it('defaults to the last 7 days, grouped by day, key and model, as JSON', () => {
    expect(parseUsageQuery({}, NOW)).toEqual({ groupBy: ['day', 'key', 'model'], format: 'json', from: new Date('2026-11-17T12:00:00Z'), to: NOW });
  });

  it('groups by one or several dimensions, in the order given', () => {
    expect(parseUsageQuery({ group_by: 'team' }, NOW).groupBy).toEqual(['team']);
    expect(parseUsageQuery({ group_by: 'model, day' }, NOW).groupBy).toEqual(['model', 'day']);
  });

  it('groups by end user or by tag, with other dimensions, but not by both (decision 0033)', () => {
    expect(parseUsageQuery({ group_by: 'end_user,day' }, NOW).groupBy).toEqual(['end_user', 'day']);
    expect(parseUsageQuery({ group_by: 'tag' }, NOW).groupBy).toEqual(['tag']);
    expect(refusal({ group_by: 'end_user,tag' })).toEqual({ param: 'group_by', message: "Invalid 'group_by': end_user and tag cannot be grouped by together; ask for one of them" });
  });

  it('reads dates as UTC days, a date alone for `to` including that whole day', () => {
    const parsed = parseUsageQuery({ from: '2026-11-01', to: '2026-11-30', format: 'csv', key_id: KEY }, NOW);
    expect(parsed).toEqual({
      groupBy: ['day', 'key', 'model'],
      format: 'csv',
      from: new Date('2026-11-01T00:00:00Z'),
      to: new Date('2026-12-01T00:00:00Z'),
      apiKeyId: KEY,
    });
  });

  it('takes date-times with an offset, or UTC without one', () => {
    const parsed = parseUsageQuery({ from: '2026-11-24T09:30:00+02:00', to: '2026-11-24T10:00' }, NOW);
    expect(parsed.from).toEqual(new Date('2026-11-24T07:30:00Z'));
    expect(parsed.to).toEqual(new Date('2026-11-24T10:00:00Z'));
    expect(parseUsageQuery({ from: '2026-11-24T09:30:00.123456Z', to: '2026-11-25' }, NOW).from).toEqual(new Date('2026-11-24T09:30:00.123Z'));
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{ group_by: 'week' }, 'group_by', "Invalid 'group_by': 'week' is not one of key, team, model, provider, day, hour, end_user, tag (several may be given, comma separated)"],
    [{ group_by: 'key,key' }, 'group_by', "Invalid 'group_by': 'key' is given twice"],
    [{ group_by: '' }, 'group_by', "Invalid 'group_by': '' is not one of key, team, model, provider, day, hour, end_user, tag (several may be given, comma separated)"],
    [{ group_by: ['key', 'team'] }, 'group_by', "Invalid 'group_by': give it once, as a single value"],
    [{ format: 'xlsx' }, 'format', "Invalid 'format': must be json or csv, got 'xlsx'"],
    [{ from: 'yesterday' }, 'from', "Invalid 'from': must be an ISO 8601 date (2026-11-24) or date-time (2026-11-24T09:30:00Z), got 'yesterday'"],
    [{ from: '1' }, 'from', "Invalid 'from': must be an ISO 8601 date (2026-11-24) or date-time (2026-11-24T09:30:00Z), got '1'"],
    [{ to: '2026-02-30' }, 'to', "Invalid 'to': must be an ISO 8601 date (2026-11-24) or date-time (2026-11-24T09:30:00Z), got '2026-02-30'"],
    [{ to: '2026-11-24T25:00:00Z' }, 'to', "Invalid 'to': must be an ISO 8601 date (2026-11-24) or date-time (2026-11-24T09:30:00Z), got '2026-11-24T25:00:00Z'"],
    [{ from: '2026-11-24', to: '2026-11-01' }, 'from', "Invalid 'from': must be before 'to' (from 2026-11-24T00:00:00.000Z, to 2026-11-02T00:00:00.000Z)"],
    [{ key_id: 'ci' }, 'key_id', "Invalid 'key_id': must be a key id (see GET /admin/keys), got 'ci'"],
    [{ team_id: '42' }, 'team_id', "Invalid 'team_id': must be a team id (see GET /admin/teams), got '42'"],
    [{ groupby: 'key' }, 'groupby', "Unknown query parameter 'groupby'; use group_by, from, to, format, key_id, team_id"],
  ])('refuses %j with a 400 naming %s', (query, param, message) => {
    expect(refusal(query)).toEqual({ param, message });
  });
});
