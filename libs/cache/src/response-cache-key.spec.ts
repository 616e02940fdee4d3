import type { CanonicalRequest } from '@rosetta/canonical';
import { cacheScope, canonicalText, responseCacheKey, uncacheableReason } from './response-cache-key';

const request = (fields: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  model: 'rosetta/gpt-4o-mini',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
  stream: false,
  routing: {},
  ...fields,
});

describe('response cache key', () => {
  it('is the same for the same question however it is delivered, routed or tagged', () => {
    const plain = responseCacheKey(request(), 'key:1');
    expect(responseCacheKey(request({ stream: true }), 'key:1')).toBe(plain);
    expect(responseCacheKey(request({ routing: { models: ['rosetta/x'] } as CanonicalRequest['routing'] }), 'key:1')).toBe(plain);
    expect(responseCacheKey(request({ user: 'someone', passthrough: { protocol: 'openai', body: { a: 1 } } }), 'key:1')).toBe(plain);
    const hinted = request({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hello', cache: { type: 'ephemeral' } }] }] });
    expect(responseCacheKey(hinted, 'key:1')).toBe(plain);
  });

  it('differs by scope, model, parameters, tools and every turn', () => {
    const plain = responseCacheKey(request(), 'key:1');
    const others = [
      responseCacheKey(request(), 'key:2'),
      responseCacheKey(request(), 'team:1'),
      responseCacheKey(request({ model: 'rosetta/claude-sonnet-4-5' }), 'key:1'),
      responseCacheKey(request({ temperature: 0.2 }), 'key:1'),
      responseCacheKey(request({ maxOutputTokens: 10 }), 'key:1'),
      responseCacheKey(request({ tools: [{ name: 'f', parameters: { type: 'object' } }] as CanonicalRequest['tools'] }), 'key:1'),
      responseCacheKey(request({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hello!' }] }] }), 'key:1'),
      responseCacheKey(request({ messages: [{ role: 'system', content: [{ type: 'text', text: 'be brief' }] }, { role: 'user', content: [{ type: 'text', text: 'hello' }] }] }), 'key:1'),
    ];
    expect(new Set([plain, ...others]).size).toBe(others.length + 1);
  });

  it('writes keys sorted and leaves undefined fields out, so field order never matters', () => {
    expect(canonicalText({ b: 1, a: { d: undefined, c: [1, 'x', null, true] } })).toBe('o2{1:ao1{1:ca4[n1;s1:xzt]}1:bn1;}');
    expect(canonicalText({ a: 1, b: 2 })).toBe(canonicalText({ b: 2, a: 1 }));
  });

  it('never writes two different values the same way (lengths, not escapes, delimit strings)', () => {
    const values = [{ a: 'x', b: 'y' }, { a: 'x"b', b: '' }, { 'a:': 'x' }, { a: ['x', 'y'] }, { a: ['xy'] }, { a: 'xy' }, { a: 1 }, { a: '1' }, { a: null }, { a: 'z' }];
    expect(new Set(values.map((v) => canonicalText(v))).size).toBe(values.length);
  });

  it('keeps a team to itself, and a key without a team to itself', () => {
    expect(cacheScope({ id: 'k1', teamId: 't1' })).toBe('team:t1');
    expect(cacheScope({ id: 'k1', teamId: null })).toBe('key:k1');
    expect(cacheScope(undefined)).toBeUndefined();
  });

  it('refuses n > 1', () => {
    expect(uncacheableReason(request({ candidateCount: 2 }))).toBe('n > 1');
    expect(uncacheableReason(request({ candidateCount: 1 }))).toBeUndefined();
  });
});
