import { mapGeminiUsage, toGeminiUsage } from './map-gemini-usage';

describe('mapGeminiUsage', () => {
  it('counts thoughts as output and tool-use prompt tokens as input, keeping the cached subset', () => {
    expect(
      mapGeminiUsage({
        promptTokenCount: 1200,
        cachedContentTokenCount: 1000,
        toolUsePromptTokenCount: 30,
        candidatesTokenCount: 6,
        thoughtsTokenCount: 20,
        totalTokenCount: 1256,
      }),
    ).toEqual({ inputTokens: 1230, outputTokens: 26, cachedInputTokens: 1000, reasoningTokens: 20 });
  });

  it('treats counts proto3 JSON left out as zero, and reads nothing from a record without counts', () => {
    expect(mapGeminiUsage({ promptTokenCount: 4, totalTokenCount: 4 })).toEqual({ inputTokens: 4, outputTokens: 0 });
    expect(mapGeminiUsage({ trafficType: 'ON_DEMAND' })).toBeUndefined();
    expect(mapGeminiUsage(undefined)).toBeUndefined();
  });
});

describe('toGeminiUsage', () => {
  it('splits thoughts out of the output again, and totals everything', () => {
    expect(toGeminiUsage({ inputTokens: 1200, outputTokens: 26, cachedInputTokens: 1000, reasoningTokens: 20 })).toEqual({
      promptTokenCount: 1200,
      candidatesTokenCount: 6,
      totalTokenCount: 1226,
      thoughtsTokenCount: 20,
      cachedContentTokenCount: 1000,
    });
    expect(toGeminiUsage({ inputTokens: 3, outputTokens: 4, reasoningTokens: 0, cachedInputTokens: 0 })).toEqual({
      promptTokenCount: 3,
      candidatesTokenCount: 4,
      totalTokenCount: 7,
    });
  });
});
