import * as tokenizer from 'gpt-tokenizer';
import { countTokensBounded, estimateEmbeddingTokens, estimatePromptTokens, EXACT_CHAR_BUDGET, MAX_RUN } from './token-estimator';

// The real tokenizer, watched: what it is handed is how much work a request can cause.
jest.mock('gpt-tokenizer', () => {
  const actual = jest.requireActual<typeof import('gpt-tokenizer')>('gpt-tokenizer');
  return { ...actual, countTokens: jest.fn(actual.countTokens) };
});
const counted = tokenizer.countTokens as jest.MockedFunction<typeof tokenizer.countTokens>;
const exact = jest.requireActual<typeof import('gpt-tokenizer')>('gpt-tokenizer').countTokens;

function longestRun(text: string): number {
  let longest = 0;
  for (const match of text.matchAll(/\s+|\S+/g)) longest = Math.max(longest, match[0].length);
  return longest;
}

function textRequest(...texts: string[]) {
  return { messages: texts.map((text) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] })) };
}

beforeEach(() => counted.mockClear());

describe('estimatePromptTokens', () => {
  it('counts text with the tokenizer plus per-message overhead', () => {
    const one = estimatePromptTokens(textRequest('hello world, how are you?'));
    expect(one).toBe(3 + 4 + 7);
  });

  it('grows with tools, tool calls and images', () => {
    const base = textRequest('hi');
    const withTools = estimatePromptTokens({ ...base, tools: [{ name: 'get_weather', parameters: { type: 'object' } }] });
    const withImage = estimatePromptTokens({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } }] }],
    });
    expect(withTools).toBeGreaterThan(estimatePromptTokens(base));
    expect(withImage).toBe(estimatePromptTokens(base) + 1000);
  });

  it.each([
    ['a word without spaces', 'q' + 'A'.repeat(300_000)],
    ['a run of spaces', 'q' + ' '.repeat(300_000)],
    ['a run of newlines', '\n'.repeat(300_000)],
    ['CJK text', '我们是'.repeat(100_000)],
    ['punctuation', '!?'.repeat(150_000)],
  ])('hands the tokenizer no run longer than MAX_RUN and no more than the budget for %s', (_name, text) => {
    const tokens = estimatePromptTokens(textRequest(text));
    const pieces = counted.mock.calls.map(([piece]) => String(piece));
    expect(Math.max(...pieces.map(longestRun))).toBeLessThanOrEqual(MAX_RUN);
    expect(pieces.reduce((sum, piece) => sum + piece.length, 0)).toBeLessThanOrEqual(EXACT_CHAR_BUDGET);
    // Never below one token per five characters for what was not tokenised.
    expect(tokens).toBeGreaterThanOrEqual(Math.ceil((text.length - EXACT_CHAR_BUDGET) / 5));
  });

  it('keeps the whole budget across many messages, not per message', () => {
    const texts = Array.from({ length: 40 }, (_, i) => `message ${i} `.repeat(1000));
    estimatePromptTokens(textRequest(...texts));
    expect(counted.mock.calls.reduce((sum, [piece]) => sum + String(piece).length, 0)).toBeLessThanOrEqual(EXACT_CHAR_BUDGET);
  });

  it('extrapolates past the budget at the ratio the tokenised part gave', () => {
    const prose = 'The quick brown fox jumps over the lazy dog while the cat naps in the warm sun. ';
    const text = prose.repeat(Math.ceil((4 * EXACT_CHAR_BUDGET) / prose.length));
    const real = exact(text);
    const estimated = estimatePromptTokens(textRequest(text)) - 3 - 4;
    expect(Math.abs(estimated - real) / real).toBeLessThan(0.02);
  });
});

describe('countTokensBounded', () => {
  it('equals the tokenizer on ordinary text', () => {
    const text = 'Rosetta routes each prompt to the model that suits it.\n\tIndented, with punctuation!';
    expect(countTokensBounded(text.repeat(50))).toBe(exact(text.repeat(50)));
  });

  it('stays close to the tokenizer on long runs it has to cut', () => {
    for (const text of ['x' + 'A'.repeat(3000), 'word '.repeat(10) + 'Z'.repeat(2000) + ' tail', '测试'.repeat(800)]) {
      const real = exact(text);
      expect(Math.abs(countTokensBounded(text) - real) / real).toBeLessThan(0.1);
    }
  });
});

describe('estimateEmbeddingTokens', () => {
  it('adds up text and token-id inputs, and names the largest', () => {
    const inputs = [{ type: 'text' as const, text: 'hello world' }, { type: 'tokens' as const, tokens: [1, 2, 3, 4, 5] }, { type: 'text' as const, text: 'hi' }];
    expect(estimateEmbeddingTokens(inputs)).toEqual({ total: exact('hello world') + 5 + exact('hi'), largest: 5 });
  });

  it('tokenises one budget for the whole request, however many inputs it has', () => {
    const inputs = Array.from({ length: 2048 }, (_, i) => ({ type: 'text' as const, text: `input number ${i} `.repeat(40) }));
    const { total, largest } = estimateEmbeddingTokens(inputs);
    const handed = counted.mock.calls.reduce((sum, [text]) => sum + String(text).length, 0);
    expect(handed).toBeLessThanOrEqual(EXACT_CHAR_BUDGET);
    const real = inputs.reduce((sum, input) => sum + exact(input.text), 0);
    expect(Math.abs(total - real) / real).toBeLessThan(0.05);
    expect(largest).toBeGreaterThan(100);
  });
});
