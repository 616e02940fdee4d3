import { parseRetryAfter, sanitizeUpstreamMessage, upstreamHttpError } from './upstream-error';

describe('upstream errors', () => {
  it('removes the operator key, key-like tokens and URLs from upstream messages', () => {
    const message = 'Incorrect API key provided: sk-proj-abcdefghijklmnop1234. See https://internal.host:8443/v1/x for help; secret=op-secret-value';
    expect(sanitizeUpstreamMessage(message, ['op-secret-value'])).toBe(
      'Incorrect API key provided: [redacted]. See [url] for help; secret=[redacted]',
    );
  });

  it.each([
    [500, 502, true],
    [503, 502, true],
    [429, 429, true],
    [400, 400, false],
    [413, 413, false],
    [422, 422, false],
    [401, 502, true],
    [404, 502, true],
  ])('upstream %i becomes %i (retryable: %s)', (upstream, status, retryable) => {
    const error = upstreamHttpError(upstream, 'nope');
    expect({ type: error.type, status: error.status, retryable: error.retryable, message: error.message }).toEqual({
      type: 'upstream_error',
      status,
      retryable,
      message: 'Upstream service error: nope',
    });
  });

  it('reads retry-after-ms, then retry-after in seconds or as a date', () => {
    expect(parseRetryAfter({ 'retry-after-ms': '1500', 'retry-after': '9' })).toBe(1500);
    expect(parseRetryAfter({ 'retry-after': '7' })).toBe(7000);
    const inTwoSeconds = new Date(Date.now() + 2000).toUTCString();
    expect(parseRetryAfter({ 'retry-after': inTwoSeconds })).toBeGreaterThan(0);
    expect(parseRetryAfter({ 'retry-after': 'soon' })).toBeUndefined();
    expect(parseRetryAfter({})).toBeUndefined();
  });
});
