import { GatewayError } from '@rosetta/canonical';
import { redactDetails } from './audit-entry';
import { parseAuditQuery } from './audit-query';

describe('audit log details', () => {
  it('keeps what was asked for and replaces secrets, at any depth', () => {
    expect(redactDetails({ slug: 'acme', api_key: 'sk-live-123', endpoints: [{ model: 'rosetta/x', token: 't' }], nested: { client_secret: 'c', keep: 1 } })).toEqual({
      slug: 'acme',
      api_key: '[redacted]',
      endpoints: [{ model: 'rosetta/x', token: '[redacted]' }],
      nested: { client_secret: '[redacted]', keep: 1 },
    });
  });

  it("keeps a URL's host and path, not its credentials or query values (a webhook guardrail's url)", () => {
    const guardrails = [{ check: 'webhook', on: 'input', action: 'block', url: 'https://bob:pw@dlp.example:8443/v1/check?token=s3cret&tenant=acme#frag' }];
    expect(redactDetails({ guardrails })).toEqual({
      guardrails: [{ check: 'webhook', on: 'input', action: 'block', url: 'https://dlp.example:8443/v1/check?token=%5Bredacted%5D&tenant=%5Bredacted%5D#frag' }],
    });
    expect(redactDetails({ url: 'not a url with a secret' })).toEqual({ url: '[redacted]' });
  });

  it('keeps nothing for an empty or non-object body, and only field names for a huge one', () => {
    expect(redactDetails(undefined)).toBeUndefined();
    expect(redactDetails({})).toBeUndefined();
    expect(redactDetails(['a'])).toBeUndefined();
    expect(redactDetails({ name: 'x'.repeat(9_000), plan: 'pro' })).toEqual({ truncated: true, fields: ['name', 'plan'] });
  });
});

describe('GET /admin/audit parameters', () => {
  it('pages by 50 by default and reads the filters', () => {
    expect(parseAuditQuery({})).toEqual({ limit: 50, before: undefined, action: undefined, actor: undefined, target: undefined, from: undefined, to: undefined });
    expect(parseAuditQuery({ limit: '10', before: '42', action: 'key', actor: 'alice', target: 'ci', from: '2026-11-01', to: '2026-11-02T00:00:00Z' })).toEqual({
      limit: 10,
      before: '42',
      action: 'key',
      actor: 'alice',
      target: 'ci',
      from: new Date('2026-11-01T00:00:00Z'),
      to: new Date('2026-11-02T00:00:00Z'),
    });
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{ limit: '0' }, 'limit', "Invalid 'limit': must be a whole number from 1 to 200, got '0'"],
    [{ limit: '500' }, 'limit', "Invalid 'limit': must be a whole number from 1 to 200, got '500'"],
    [{ before: 'abc' }, 'before', "Invalid 'before': must be the next_cursor of a previous page, got 'abc'"],
    [{ action: "key'; drop" }, 'action', "Invalid 'action': an action such as key.revoke, or a kind such as key, got 'key'; drop'"],
    [{ from: 'yesterday' }, 'from', "Invalid 'from': must be an ISO 8601 date or date-time, got 'yesterday'"],
    [{ actor: ['a', 'b'] }, 'actor', "Invalid 'actor': give it once, as a single value"],
    [{ who: 'alice' }, 'who', "Unknown query parameter 'who'; use limit, before, action, actor, target, from, to"],
  ])('refuses %j with a 400 naming %s', (query, param, message) => {
    let caught: unknown;
    try {
      parseAuditQuery(query);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GatewayError);
    expect({ status: (caught as GatewayError).status, param: (caught as GatewayError).param, message: (caught as GatewayError).message }).toEqual({ status: 400, param, message });
  });
});
