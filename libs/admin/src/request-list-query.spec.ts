import { GatewayError } from '@rosetta/canonical';
import { decodeCursor, encodeCursor } from '@rosetta/usage';
import { parseRequestListQuery } from './request-list-query';

const KEY = '0b6f3c52-8d0e-4c55-9d8b-1d2f3a4b5c6d';

function refusal(query: Record<string, unknown>): { param?: string; message: string } {
  try {
    parseRequestListQuery(query);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    expect(error.status).toBe(400);
    return { param: error.param, message: error.message };
  }
  throw new Error('expected a 400');
}

describe('GET /admin/requests parameters', () => {
  it('defaults to the newest 50 rows, unfiltered', () => {
    expect(parseRequestListQuery({})).toEqual({ limit: 50 });
  });

  it('reads every filter', () => {
    const before = encodeCursor({ time: '2026-11-27T05:31:02.123456Z', requestId: 'req_abcdefghijklmnop' });
    expect(parseRequestListQuery({ limit: '200', before, key_id: KEY, team_id: KEY, model: 'rosetta/gpt-4o-mini', status: 'error', since: '2026-11-01', until: '2026-11-30' })).toEqual({
      limit: 200,
      before: { time: '2026-11-27T05:31:02.123456Z', requestId: 'req_abcdefghijklmnop' },
      apiKeyId: KEY,
      teamId: KEY,
      model: 'rosetta/gpt-4o-mini',
      status: 'error',
      since: new Date('2026-11-01T00:00:00Z'),
      until: new Date('2026-12-01T00:00:00Z'),
    });
    expect(parseRequestListQuery({ status: '429' }).status).toBe(429);
  });

  it('reads the end user and one tag (decision 0033), and refuses what no request could carry', () => {
    expect(parseRequestListQuery({ end_user: ' alice@example.com ', tag: 'env=prod' })).toEqual({ limit: 50, endUser: 'alice@example.com', tag: 'env=prod' });
    expect(refusal({ end_user: '' }).param).toBe('end_user');
    expect(refusal({ end_user: 'x'.repeat(257) })).toEqual({ param: 'end_user', message: "Invalid 'end_user': must be at most 256 characters, got 257" });
    expect(refusal({ end_user: 'a\u0000' }).param).toBe('end_user');
    expect(refusal({ tag: 'a,b' }).param).toBe('tag');
    expect(refusal({ tag: 'has space' }).param).toBe('tag');
    expect(refusal({ tag: ' ' }).param).toBe('tag');
  });

  it('refuses what it cannot use with a 400 that names the parameter', () => {
    expect(refusal({ limit: '0' })).toEqual({ param: 'limit', message: "Invalid 'limit': must be a whole number from 1 to 200, got '0'" });
    expect(refusal({ limit: '201' }).param).toBe('limit');
    expect(refusal({ limit: '1.5' }).param).toBe('limit');
    expect(refusal({ before: 'not-a-cursor' })).toEqual({ param: 'before', message: "Invalid 'before': must be the next_cursor of a previous page, got 'not-a-cursor'" });
    expect(refusal({ key_id: 'ci-bot' })).toEqual({ param: 'key_id', message: "Invalid 'key_id': must be a key id (see GET /admin/keys), got 'ci-bot'" });
    expect(refusal({ status: 'failed' }).param).toBe('status');
    expect(refusal({ status: '42' }).param).toBe('status');
    expect(refusal({ since: 'yesterday' }).param).toBe('since');
    expect(refusal({ since: '2026-11-02', until: '2026-11-01' }).param).toBe('since');
    expect(refusal({ model: '' }).param).toBe('model');
    expect(refusal({ limit: ['1', '2'] }).param).toBe('limit');
    expect(refusal({ page: '2' })).toEqual({ param: 'page', message: "Unknown query parameter 'page'; use before, limit, key_id, team_id, model, end_user, tag, status, since, until, format" });
  });

  it('asks for an export with format=ndjson, which has every matching row (no limit, no cursor)', () => {
    expect(parseRequestListQuery({ format: 'ndjson', key_id: KEY, status: 'error' })).toEqual({ limit: 50, format: 'ndjson', apiKeyId: KEY, status: 'error' });
    expect(parseRequestListQuery({ format: 'json' })).toEqual({ limit: 50 });
    expect(refusal({ format: 'csv' })).toEqual({ param: 'format', message: "Invalid 'format': must be json or ndjson, got 'csv'" });
    expect(refusal({ format: 'ndjson', limit: '10' })).toEqual({
      param: 'limit',
      message: "Invalid 'limit': an export (format=ndjson) has every matching row; narrow it with since and until instead",
    });
    expect(refusal({ format: 'ndjson', before: 'x' }).param).toBe('before');
  });

  it('hands out cursors that read back, and no others', () => {
    const cursor = { time: '2026-11-27T05:31:02.000001Z', requestId: 'req_AAAAAAAAAAAAAAAA' };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(decodeCursor(Buffer.from('2026-11-27 req_x').toString('base64url'))).toBeUndefined();
    expect(decodeCursor(Buffer.from('2026-11-27T05:31:02.000001Z req_x extra').toString('base64url'))).toBeUndefined();
  });
});
