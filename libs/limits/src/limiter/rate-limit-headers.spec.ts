import { formatResetDuration, rateLimitHeaders } from './rate-limit-headers';

describe('formatResetDuration', () => {
  it.each([
    [0, '0s'],
    [-5, '0s'],
    [Number.NaN, '0s'],
    [0.4, '1ms'],
    [250, '250ms'],
    [999, '999ms'],
    [1_000, '1s'],
    [1_500, '1.5s'],
    [20_250, '20.25s'],
    [59_999, '59.999s'],
    [60_000, '1m0s'],
    [60_250, '1m0.25s'],
    [360_000, '6m0s'],
    [3_600_000, '1h0m0s'],
    [3_723_004, '1h2m3.004s'],
  ])('%p ms -> %p', (ms, text) => {
    expect(formatResetDuration(ms)).toBe(text);
  });
});

describe('rateLimitHeaders', () => {
  const window = (limit: number, used: number, resetMs: number, windowResetMs?: number) => ({
    allowed: used < limit,
    used,
    remaining: Math.max(0, limit - used),
    resetMs,
    windowResetMs,
    limit,
  });

  it('writes the six headers', () => {
    expect(rateLimitHeaders({ plan: 'free', requests: window(100, 3, 0, 59_000), tokens: window(10_000, 10_400, 250, 6 * 60_000) })).toEqual({
      'x-ratelimit-limit-requests': '100',
      'x-ratelimit-remaining-requests': '97',
      'x-ratelimit-reset-requests': '59s',
      'x-ratelimit-limit-tokens': '10000',
      'x-ratelimit-remaining-tokens': '0',
      'x-ratelimit-reset-tokens': '6m0s',
    });
  });

  it('falls back to resetMs when the window reset is unknown', () => {
    expect(rateLimitHeaders({ plan: 'free', requests: window(5, 5, 1_500) })['x-ratelimit-reset-requests']).toBe('1.5s');
  });

  it('omits unlimited and unread dimensions', () => {
    expect(rateLimitHeaders({ plan: 'enterprise', requests: null, tokens: null })).toEqual({});
    expect(Object.keys(rateLimitHeaders({ plan: 'free', requests: window(100, 1, 0, 60_000) }))).toEqual([
      'x-ratelimit-limit-requests',
      'x-ratelimit-remaining-requests',
      'x-ratelimit-reset-requests',
    ]);
  });
});
