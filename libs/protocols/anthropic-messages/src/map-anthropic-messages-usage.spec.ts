import { mapAnthropicMessagesUsage, toAnthropicMessagesUsage } from './map-anthropic-messages-usage';

describe('mapAnthropicMessagesUsage', () => {
  it('adds cache reads and writes into the input total and keeps the thinking count', () => {
    expect(
      mapAnthropicMessagesUsage({
        input_tokens: 14,
        cache_creation_input_tokens: 120,
        cache_read_input_tokens: 2048,
        output_tokens: 300,
        output_tokens_details: { thinking_tokens: 256 },
        service_tier: 'standard',
      }),
    ).toEqual({ inputTokens: 2182, outputTokens: 300, cachedInputTokens: 2048, cacheCreationInputTokens: 120, reasoningTokens: 256 });
  });

  it('treats null cache counters as absent', () => {
    expect(mapAnthropicMessagesUsage({ input_tokens: 5, output_tokens: 1, cache_read_input_tokens: null })).toEqual({ inputTokens: 5, outputTokens: 1 });
  });

  it.each([[null], [undefined], [{ output_tokens: 3 }], [{ input_tokens: 3 }], ['12']])('returns undefined for %j', (raw) => {
    expect(mapAnthropicMessagesUsage(raw)).toBeUndefined();
  });
});

describe('toAnthropicMessagesUsage', () => {
  it('takes cached tokens out of input_tokens and always writes both cache counters', () => {
    expect(toAnthropicMessagesUsage({ inputTokens: 10, outputTokens: 5 })).toEqual({
      input_tokens: 10,
      output_tokens: 5,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
  });

  it('never reports negative input', () => {
    expect(toAnthropicMessagesUsage({ inputTokens: 10, outputTokens: 5, cachedInputTokens: 8, cacheCreationInputTokens: 4 }).input_tokens).toBe(0);
  });

  it('round-trips the input split', () => {
    const usage = { inputTokens: 2182, outputTokens: 300, cachedInputTokens: 2048, cacheCreationInputTokens: 120 };
    expect(mapAnthropicMessagesUsage(toAnthropicMessagesUsage(usage))).toEqual(usage);
  });
});
