import { GatewayError } from '@rosetta/canonical';
import { decodeUsageCursor, encodeUsageCursor, type UsageCursor } from './usage-cursor';
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
    expect(parseUsageQuery({}, NOW)).toEqual({ groupBy: ['day', 'key', 'model'], format: 'json', from: new Date('2026-11-17T12:00:00Z'), to: NOW, limit: 1000 });
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
      limit: 1000,
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
    [{ groupby: 'key' }, 'groupby', "Unknown query parameter 'groupby'; use group_by, from, to, format, key_id, team_id, limit, cursor"],
    [{ limit: '0' }, 'limit', "Invalid 'limit': must be a whole number from 1 to 10000, got '0'"],
    [{ limit: '10001' }, 'limit', "Invalid 'limit': must be a whole number from 1 to 10000, got '10001'"],
    [{ limit: '2.5' }, 'limit', "Invalid 'limit': must be a whole number from 1 to 10000, got '2.5'"],
    [{ limit: '-1' }, 'limit', "Invalid 'limit': must be a whole number from 1 to 10000, got '-1'"],
    [{ limit: ['10', '20'] }, 'limit', "Invalid 'limit': give it once, as a single value"],
    [{ format: 'csv', limit: '10' }, 'limit', "Invalid 'limit': the CSV export (format=csv) has every group, streamed; page the JSON answer instead"],
    [{ cursor: 'abc' }, 'cursor', "Invalid 'cursor': must be the next_cursor of a previous page, unchanged, got 'abc'"],
    [{ cursor: '' }, 'cursor', "Invalid 'cursor': must be the next_cursor of a previous page, unchanged, got ''"],
  ])('refuses %j with a 400 naming %s', (query, param, message) => {
    expect(refusal(query)).toEqual({ param, message });
  });
});

describe('GET /admin/usage pages', () => {
  const cursor: UsageCursor = {
    groupBy: ['day', 'key', 'model'],
    from: new Date('2026-11-17T12:00:00Z'),
    to: NOW,
    after: ['2026-11-24', KEY, 'rosetta/gpt-4o-mini'],
  };
  const text = encodeUsageCursor(cursor);

  it('takes a limit from 1 to 10,000', () => {
    expect(parseUsageQuery({ limit: '1' }, NOW).limit).toBe(1);
    expect(parseUsageQuery({ limit: '10000' }, NOW).limit).toBe(10_000);
  });

  it('continues the report a cursor names, after its last group, whatever the clock says now', () => {
    const later = new Date(NOW.getTime() + 60_000);
    expect(parseUsageQuery({ cursor: text, limit: '50' }, later)).toEqual({
      groupBy: ['day', 'key', 'model'],
      from: cursor.from,
      to: NOW,
      after: cursor.after,
      format: 'json',
      limit: 50,
    });
  });

  it('accepts the same parameters beside a cursor, and refuses different ones naming the cursor', () => {
    expect(parseUsageQuery({ cursor: text, group_by: 'day,key,model', from: '2026-11-17T12:00:00Z', to: '2026-11-24T12:00:00Z' }, NOW).after).toEqual(cursor.after);
    expect(refusal({ cursor: text, group_by: 'key' })).toEqual({
      param: 'cursor',
      message: "Invalid 'cursor': it continues another report (group_by differs); leave those out beside a cursor, or drop the cursor to start a new report",
    });
    expect(refusal({ cursor: text, key_id: KEY, to: '2026-11-25' }).message).toContain('(to differs, key_id differs)');
  });

  it('refuses a cursor with the CSV export', () => {
    expect(refusal({ cursor: text, format: 'csv' })).toEqual({ param: 'cursor', message: "Invalid 'cursor': the CSV export (format=csv) has every group, streamed; page the JSON answer instead" });
  });

  it('keeps nulls and the attribution dimensions, in the order the report sorts by (time first)', () => {
    const byUser: UsageCursor = { groupBy: ['end_user', 'hour'], from: cursor.from, to: NOW, after: ['2026-11-24T09:00:00Z', null] };
    expect(decodeUsageCursor(encodeUsageCursor(byUser), (names): names is never => names.length > 0)).toEqual(byUser);
  });

  it.each<[string, (text: string) => string]>([
    ['a character changed', (t) => `${t.slice(0, 10)}${t[10] === 'A' ? 'B' : 'A'}${t.slice(11)}`],
    ['cut short', (t) => t.slice(0, -3)],
    ['its checksum dropped', (t) => t.split('.')[0]!],
    ['a /admin/requests cursor', () => Buffer.from('2026-11-27T05:31:02.123000Z req_1', 'utf8').toString('base64url')],
  ])('refuses a cursor with %s', (_, change) => {
    expect(refusal({ cursor: change(text) }).param).toBe('cursor');
  });

  it.each<[string, Record<string, unknown>]>([
    ['a group value of the wrong kind', { ...cursor, after: ['yesterday', KEY, 'm'] }],
    ['too few group values', { ...cursor, after: ['2026-11-24', KEY] }],
    ['a group_by that is not one', { ...cursor, groupBy: ['week'] }],
    ['end_user and tag together', { ...cursor, groupBy: ['end_user', 'tag'], after: [null, null] }],
    ['an empty window', { ...cursor, from: NOW }],
  ])('refuses a well-formed cursor holding %s', (_, edited) => {
    // Re-encoded with a valid checksum: the content itself is checked, not only the checksum.
    expect(refusal({ cursor: encodeUsageCursor(edited as unknown as UsageCursor) }).param).toBe('cursor');
  });
});
