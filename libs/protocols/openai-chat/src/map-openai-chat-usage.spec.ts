import { mapOpenAIChatUsage, toOpenAIChatUsage } from './map-openai-chat-usage';

describe('mapOpenAIChatUsage', () => {
  it('keeps cached, cache-write and reasoning counts, which OpenAI already includes in the totals', () => {
    expect(
      mapOpenAIChatUsage({
        prompt_tokens: 1200,
        completion_tokens: 300,
        total_tokens: 1500,
        prompt_tokens_details: { cached_tokens: 1024, cache_write_tokens: 100, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 256 },
      }),
    ).toEqual({ inputTokens: 1200, outputTokens: 300, cachedInputTokens: 1024, cacheCreationInputTokens: 100, reasoningTokens: 256 });
  });

  it.each([[null], [undefined], [{ prompt_tokens: 3 }], ['12']])('returns undefined for %j', (raw) => {
    expect(mapOpenAIChatUsage(raw)).toBeUndefined();
  });
});

describe('toOpenAIChatUsage', () => {
  it('always writes total_tokens and both detail objects', () => {
    expect(toOpenAIChatUsage({ inputTokens: 10, outputTokens: 5 })).toEqual({
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    });
  });

  it('round-trips cached, cache-write and reasoning counts', () => {
    const usage = { inputTokens: 1200, outputTokens: 300, cachedInputTokens: 1024, cacheCreationInputTokens: 100, reasoningTokens: 256 };
    expect(mapOpenAIChatUsage(toOpenAIChatUsage(usage))).toEqual(usage);
  });
});
