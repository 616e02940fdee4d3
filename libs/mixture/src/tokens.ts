import { countTokensBounded } from '@rosetta/limits';

/** Above this many characters the token count is estimated (chars / 4) instead of tokenised. */
export const EXACT_TOKEN_CHAR_LIMIT = 2000;

export interface TokenCount {
  tokens: number;
  exact: boolean;
}

/**
 * Prompt tokens: exact (o200k BPE via gpt-tokenizer) for short texts, chars/4 beyond 2k
 * characters so a decision never tokenises a long prompt (that alone would cost milliseconds).
 */
export function countPromptTokens(text: string): TokenCount {
  // Bounded: a 2k-character word without spaces would otherwise cost the tokenizer milliseconds.
  if (text.length <= EXACT_TOKEN_CHAR_LIMIT) return { tokens: countTokensBounded(text), exact: true };
  return { tokens: Math.ceil(text.length / 4), exact: false };
}
