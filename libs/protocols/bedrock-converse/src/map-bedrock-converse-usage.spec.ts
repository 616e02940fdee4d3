import { GatewayError } from '@rosetta/canonical';
import { mapBedrockConverseUsage } from './map-bedrock-converse-usage';

describe('mapBedrockConverseUsage', () => {
  it('adds cache reads and writes into the input, which Bedrock counts apart', () => {
    expect(mapBedrockConverseUsage({ inputTokens: 5, outputTokens: 7, totalTokens: 112, cacheReadInputTokens: 60, cacheWriteInputTokens: 40 })).toEqual({
      inputTokens: 105,
      outputTokens: 7,
      cachedInputTokens: 60,
      cacheCreationInputTokens: 40,
    });
    expect(mapBedrockConverseUsage({ inputTokens: 5, outputTokens: 7, cacheReadInputTokens: 0, cacheWriteInputTokens: 0 })).toEqual({ inputTokens: 5, outputTokens: 7 });
  });

  it('is undefined without both counts, and refuses a count that is no token count', () => {
    expect(mapBedrockConverseUsage(undefined)).toBeUndefined();
    expect(mapBedrockConverseUsage({ inputTokens: 5 })).toBeUndefined();
    expect(() => mapBedrockConverseUsage({ inputTokens: -1, outputTokens: 2 })).toThrow(GatewayError);
    expect(() => mapBedrockConverseUsage({ inputTokens: 1, outputTokens: 2, cacheReadInputTokens: 2.5 })).toThrow(/malformed usage/);
  });
});
