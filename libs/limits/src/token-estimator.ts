import type { CanonicalRequest, ContentPart, EmbeddingInput, Message } from '@rosetta/canonical';
import { countTokens } from 'gpt-tokenizer';
import { audioTokens, documentTokens, imageTokens } from './media-tokens';

/**
 * Prompt tokens estimated with a real BPE tokenizer (o200k). Providers tokenise differently, so
 * this is an estimate — used to reserve rate-limit budget, check context windows and answer
 * count_tokens — never a bill: usage is settled from what the upstream reports.
 *
 * The work is bounded and linear whatever a caller sends (issue 12): BPE merging is quadratic in
 * the length of one pre-token, and a word without spaces, a run of whitespace or a paragraph of CJK
 * text is one pre-token, so runs are cut into slices of at most `MAX_RUN` characters; and only the
 * first `EXACT_CHAR_BUDGET` characters of a request are tokenised, the rest estimated at the ratio
 * those gave (never below one token per five characters).
 */
const PER_MESSAGE = 4;

/** Characters per request tokenised exactly (~2 ms of ordinary text). */
export const EXACT_CHAR_BUDGET = 64 * 1024;
/** The longest run of whitespace or of non-whitespace handed to the tokenizer in one piece. */
export const MAX_RUN = 128;
/** Characters past the budget are estimated at no fewer tokens each than this. */
const MIN_TOKENS_PER_CHAR = 1 / 5;

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x3000 || (code >= 0x2000 && code <= 0x200a);
}

/**
 * Tokens of `text`, tokenised in pieces that hold no run longer than `MAX_RUN`: one pass over the
 * characters, one tokenizer call per cut (long runs are rare, so ordinary text is one call).
 */
export function countTokensBounded(text: string): number {
  if (text.length <= MAX_RUN) return countTokens(text);
  let tokens = 0;
  let pieceStart = 0;
  let run = 0;
  let runIsSpace = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (space === runIsSpace && run > 0) run++;
    else {
      runIsSpace = space;
      run = 1;
    }
    if (run > MAX_RUN) {
      tokens += countTokens(text.slice(pieceStart, i));
      pieceStart = i;
      run = 1;
    }
  }
  return tokens + countTokens(text.slice(pieceStart));
}

/** Adds up one request's texts within the exact budget; the overflow is extrapolated. */
export class TokenTally {
  private budget = EXACT_CHAR_BUDGET;
  private exactChars = 0;
  private exactTokens = 0;
  private overflowChars = 0;
  private fixed = 0;

  text(text: string): this {
    if (text.length === 0) return this;
    if (this.budget <= 0) {
      this.overflowChars += text.length;
      return this;
    }
    const exact = text.length <= this.budget ? text : text.slice(0, this.budget);
    this.budget -= exact.length;
    this.exactChars += exact.length;
    this.exactTokens += countTokensBounded(exact);
    this.overflowChars += text.length - exact.length;
    return this;
  }

  /** Tokens known without tokenising (per-message overhead, images). */
  add(tokens: number): this {
    this.fixed += tokens;
    return this;
  }

  total(): number {
    if (this.overflowChars === 0) return this.fixed + this.exactTokens;
    const ratio = Math.max(this.exactTokens / Math.max(1, this.exactChars), MIN_TOKENS_PER_CHAR);
    return this.fixed + this.exactTokens + Math.ceil(this.overflowChars * ratio);
  }
}

function addPart(tally: TokenTally, part: ContentPart): void {
  switch (part.type) {
    case 'text':
    case 'thinking':
    case 'refusal':
      tally.text(part.text);
      return;
    case 'tool_call':
      tally.text(part.name).text(part.arguments).add(3);
      return;
    case 'tool_result':
      tally.add(3);
      for (const inner of part.content) addPart(tally, inner);
      return;
    case 'image':
      tally.add(imageTokens(part.source, part.detail));
      return;
    case 'document':
      if (part.source.kind === 'text') tally.text(part.source.data);
      else tally.add(documentTokens(part.source));
      return;
    case 'audio':
      tally.add(audioTokens(part.data, part.format));
      return;
    case 'redacted_thinking':
      tally.add(Math.ceil(part.data.length / 4));
      return;
  }
}

function addMessage(tally: TokenTally, message: Message): void {
  tally.add(PER_MESSAGE);
  for (const part of message.content as ContentPart[]) addPart(tally, part);
}

export function estimatePromptTokens(request: Pick<CanonicalRequest, 'messages' | 'tools'>): number {
  const tally = new TokenTally().add(3);
  for (const message of request.messages) addMessage(tally, message);
  if (request.tools?.length) tally.text(JSON.stringify(request.tools));
  return tally.total();
}

/**
 * An embeddings request's input tokens: the sum (what it reserves and, when the upstream reports
 * none, what it is charged) and the largest single input (what an endpoint's input limit is held
 * to). One tally for the whole request, so the work stays bounded however many inputs it has.
 */
export function estimateEmbeddingTokens(inputs: readonly EmbeddingInput[]): { total: number; largest: number } {
  const tally = new TokenTally();
  let largest = 0;
  for (const input of inputs) {
    const before = tally.total();
    if (input.type === 'tokens') tally.add(input.tokens.length);
    else tally.text(input.text);
    largest = Math.max(largest, tally.total() - before);
  }
  return { total: tally.total(), largest };
}
