import fc from 'fast-check';
import { GatewayError } from '@rosetta/canonical';
import { mapAnthropicMessagesUsage } from '@rosetta/protocols/anthropic-messages';
import { mapGeminiUsage } from '@rosetta/protocols/gemini';
import { mapOpenAIChatUsage } from '@rosetta/protocols/openai-chat';
import { mapOpenAIResponsesUsage } from '@rosetta/protocols/openai-responses';
import { MALFORMED_USAGE, MAX_TOKEN_COUNT } from './token-counts';

/** A count no upstream can mean: each one must fail the answer as malformed, never reach the ledger. */
const HOSTILE: Array<[string, unknown]> = [
  ['huge', 3_000_000_000],
  ['negative', -200_000_000],
  ['fractional', 12.5],
  ['a string', '1200'],
  ['infinite-looking', 1e308],
  ['a boolean', true],
  ['an object', { n: 1 }],
];

/** Each provider's usage block with one count replaced. */
const MAPPERS: Array<[string, (count: unknown) => unknown]> = [
  ['OpenAI chat prompt_tokens', (n) => mapOpenAIChatUsage({ prompt_tokens: n, completion_tokens: 5 })],
  ['OpenAI chat completion_tokens', (n) => mapOpenAIChatUsage({ prompt_tokens: 5, completion_tokens: n })],
  ['OpenAI chat cached_tokens', (n) => mapOpenAIChatUsage({ prompt_tokens: 5, completion_tokens: 5, prompt_tokens_details: { cached_tokens: n } })],
  ['Anthropic input_tokens', (n) => mapAnthropicMessagesUsage({ input_tokens: n, output_tokens: 5 })],
  ['Anthropic output_tokens', (n) => mapAnthropicMessagesUsage({ input_tokens: 5, output_tokens: n })],
  ['Anthropic cache_read_input_tokens', (n) => mapAnthropicMessagesUsage({ input_tokens: 5, output_tokens: 5, cache_read_input_tokens: n })],
  ['Gemini promptTokenCount', (n) => mapGeminiUsage({ promptTokenCount: n, candidatesTokenCount: 5 })],
  ['Gemini candidatesTokenCount', (n) => mapGeminiUsage({ promptTokenCount: 5, candidatesTokenCount: n })],
  ['Gemini thoughtsTokenCount', (n) => mapGeminiUsage({ promptTokenCount: 5, candidatesTokenCount: 5, thoughtsTokenCount: n })],
  ['Responses input_tokens', (n) => mapOpenAIResponsesUsage({ input_tokens: n, output_tokens: 5 })],
  ['Responses output_tokens', (n) => mapOpenAIResponsesUsage({ input_tokens: 5, output_tokens: n })],
];

function failure(run: () => unknown): GatewayError | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error as GatewayError;
  }
}

describe('upstream usage is validated as token counts (issue 26)', () => {
  describe.each(MAPPERS)('%s', (_name, map) => {
    it.each(HOSTILE)('refuses a count that is %s as a malformed, retryable upstream answer', (_kind, count) => {
      const error = failure(() => map(count));
      expect(error).toBeInstanceOf(GatewayError);
      expect({ type: error!.type, status: error!.status, code: error!.code, retryable: error!.retryable }).toEqual({
        type: 'upstream_error',
        status: 502,
        code: MALFORMED_USAGE,
        retryable: true,
      });
      expect(error!.message).toMatch(/malformed usage/);
    });

    it('takes a count of 0', () => {
      expect(failure(() => map(0))).toBeUndefined();
    });
  });

  it('takes the largest count the ledger can store', () => {
    expect(mapOpenAIChatUsage({ prompt_tokens: MAX_TOKEN_COUNT, completion_tokens: MAX_TOKEN_COUNT })).toEqual({ inputTokens: MAX_TOKEN_COUNT, outputTokens: MAX_TOKEN_COUNT });
    expect(mapAnthropicMessagesUsage({ input_tokens: MAX_TOKEN_COUNT, output_tokens: 0 })?.inputTokens).toBe(MAX_TOKEN_COUNT);
  });

  it('refuses counts that only overflow once a provider adds them up (Anthropic input plus cache)', () => {
    const error = failure(() => mapAnthropicMessagesUsage({ input_tokens: MAX_TOKEN_COUNT, output_tokens: 1, cache_read_input_tokens: 10 }));
    expect(error?.code).toBe(MALFORMED_USAGE);
  });

  it('refuses parts larger than their whole: cached input beyond the prompt, reasoning beyond the output', () => {
    expect(failure(() => mapOpenAIChatUsage({ prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 11 } }))?.code).toBe(MALFORMED_USAGE);
    expect(failure(() => mapOpenAIChatUsage({ prompt_tokens: 10, completion_tokens: 5, completion_tokens_details: { reasoning_tokens: 6 } }))?.code).toBe(MALFORMED_USAGE);
    expect(failure(() => mapGeminiUsage({ promptTokenCount: 10, candidatesTokenCount: 5, cachedContentTokenCount: 11 }))?.code).toBe(MALFORMED_USAGE);
  });

  it('still reads absent and null counts as unreported', () => {
    expect(mapOpenAIChatUsage({ prompt_tokens: 3, completion_tokens: null })).toBeUndefined();
    expect(mapGeminiUsage({ promptTokenCount: 7, thoughtsTokenCount: null })).toEqual({ inputTokens: 7, outputTokens: 0 });
  });
});

describe('fuzzed usage blocks (issue 26)', () => {
  /** Any count an upstream could send: huge, negative, fractional, strings, other types, or a real count. */
  const count = fc.oneof(
    fc.nat({ max: 1_000_000 }),
    fc.integer(),
    fc.maxSafeInteger(),
    fc.double({ noNaN: false }),
    fc.string({ maxLength: 12 }),
    fc.constantFrom(null, true, [], {}, '1e9', 3_000_000_000, -1, 0.5, MAX_TOKEN_COUNT, MAX_TOKEN_COUNT + 1),
  );
  const block = (keys: string[]) => fc.record(Object.fromEntries(keys.map((k) => [k, count])), { requiredKeys: [] });

  const inRange = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_TOKEN_COUNT;

  /** A usage that reached the ledger: every count a storable token count, every part within its whole. */
  function sound(usage: Record<string, unknown> | undefined): boolean {
    if (usage === undefined) return true;
    const parts = ['inputTokens', 'outputTokens', 'cachedInputTokens', 'cacheCreationInputTokens', 'reasoningTokens'].filter((k) => usage[k] !== undefined);
    const n = (k: string) => (usage[k] as number | undefined) ?? 0;
    return parts.every((k) => inRange(usage[k])) && n('cachedInputTokens') + n('cacheCreationInputTokens') <= n('inputTokens') && n('reasoningTokens') <= n('outputTokens');
  }

  it.each([
    ['OpenAI chat', block(['prompt_tokens', 'completion_tokens']), (raw: unknown) => mapOpenAIChatUsage(raw)],
    ['Anthropic', block(['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens']), (raw: unknown) => mapAnthropicMessagesUsage(raw)],
    ['Gemini', block(['promptTokenCount', 'candidatesTokenCount', 'thoughtsTokenCount', 'cachedContentTokenCount', 'toolUsePromptTokenCount']), (raw: unknown) => mapGeminiUsage(raw)],
    ['Responses', block(['input_tokens', 'output_tokens']), (raw: unknown) => mapOpenAIResponsesUsage(raw)],
  ] as const)('%s: a usage is sound or the answer is malformed, nothing else', (_name, arbitrary, map) => {
    fc.assert(
      fc.property(arbitrary, (raw) => {
        const error = failure(() => map(raw));
        if (error) return error instanceof GatewayError && error.code === MALFORMED_USAGE && error.status === 502;
        return sound(map(raw) as Record<string, unknown> | undefined);
      }),
      { seed: 2626, numRuns: 2_000 },
    );
  });
});
