import { DEFAULT_RETRY, retryDelayMs, type RetryPolicy } from './delivery-backoff';

describe('delivery backoff', () => {
  const policy: RetryPolicy = { baseMs: 1_000, maxDelayMs: 10_000, maxAttempts: 6 };

  it('doubles from the base, capped, each delay in the upper half of its step', () => {
    expect([1, 2, 3, 4, 5].map((failed) => retryDelayMs(failed, policy, 0))).toEqual([500, 1_000, 2_000, 4_000, 5_000]);
    expect([1, 2, 3, 4, 5].map((failed) => retryDelayMs(failed, policy, 1))).toEqual([1_000, 2_000, 4_000, 8_000, 10_000]);
    expect(retryDelayMs(3, policy, 0.5)).toBe(3_000);
  });

  it('gives up after the last attempt', () => {
    expect(retryDelayMs(6, policy, 0.5)).toBeUndefined();
    expect(retryDelayMs(7, policy, 0.5)).toBeUndefined();
    expect(retryDelayMs(1, { ...policy, maxAttempts: 1 }, 0.5)).toBeUndefined();
  });

  it('keeps a random value outside 0..1 inside the step', () => {
    expect(retryDelayMs(1, policy, -3)).toBe(500);
    expect(retryDelayMs(1, policy, 7)).toBe(1_000);
  });

  it('by default retries ten times over at most about an hour and a half', () => {
    const most = Array.from({ length: DEFAULT_RETRY.maxAttempts - 1 }, (_, i) => retryDelayMs(i + 1, DEFAULT_RETRY, 1)!);
    expect(most).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 640_000, 1_280_000, 2_560_000]);
    expect(retryDelayMs(DEFAULT_RETRY.maxAttempts, DEFAULT_RETRY)).toBeUndefined();
  });
});
