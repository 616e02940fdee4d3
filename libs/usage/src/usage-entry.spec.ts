import { costUsd, toUsageRow } from './usage-entry';

describe('usage cost', () => {
  const pricing = { prompt: '0.000001', completion: '0.000005', input_cache_read: '0.0000001', input_cache_write: '0.00000125' };

  it('prices plain input, cached input, cache writes and output at their own rates', () => {
    expect(costUsd({ inputTokens: 1000, outputTokens: 200 }, pricing)).toBeCloseTo(1000 * 1e-6 + 200 * 5e-6, 12);
    expect(costUsd({ inputTokens: 1000, outputTokens: 0, cachedInputTokens: 800, cacheCreationInputTokens: 100 }, pricing)).toBeCloseTo(
      100 * 1e-6 + 800 * 1e-7 + 100 * 1.25e-6,
      12,
    );
    expect(costUsd({ inputTokens: 10, outputTokens: 10 }, { prompt: '0', completion: '0', request: '0.002' })).toBe(0.002);
  });

  it('costs nothing without usage or pricing, and rows carry latency and tokens', () => {
    expect(costUsd(undefined, pricing)).toBe(0);
    const row = toUsageRow({ requestId: 'r', dialect: 'openai', streamed: true, startedAt: 1000, attempts: 2, usage: { inputTokens: 3, outputTokens: 4, reasoningTokens: 1 } }, 200, 1600);
    expect(row).toEqual(expect.objectContaining({ requestId: 'r', status: 200, latencyMs: 600, inputTokens: 3, outputTokens: 4, reasoningTokens: 1, attempts: 2, streamed: true, costUsd: 0 }));
  });
});
