import { createHash } from 'node:crypto';
import type { PromptCacheStore } from './prompt-cache-store';
import { NO_CACHE_ACTIVITY, tokensOfChars, type CacheSegment, type CacheTtl, type CacheWrite, type PromptCacheOutcome } from './prompt-cache-types';

export const TTL_MS: Record<CacheTtl, number> = { '5m': 5 * 60_000, '1h': 60 * 60_000 };

/** Anthropic looks for an earlier cached prefix at most this many blocks before a breakpoint. */
export const LOOKBACK_BLOCKS = 20;

/** Anthropic's smallest cacheable prefix: 2048 tokens for Haiku models, 1024 for the others. */
export function minimumCacheableTokens(model: string): number {
  return /haiku/i.test(model) ? 2048 : 1024;
}

interface Prefix {
  hash: string;
  tokens: number;
}

/** The hash and token count of every prefix ending at a segment; each hash chains the one before. */
function prefixesOf(segments: readonly CacheSegment[]): Prefix[] {
  let hash = '';
  let chars = 0;
  return segments.map((segment) => {
    hash = createHash('sha256').update(hash).update('\u0000').update(segment.identity).digest('hex');
    chars += segment.chars;
    return { hash, tokens: tokensOfChars(chars) };
  });
}

export interface BreakpointCacheInput {
  store: PromptCacheStore;
  partition: string;
  segments: readonly CacheSegment[];
  minTokens: number;
}

/**
 * The longest cached prefix a request can read: for each breakpoint, the breakpoint's own prefix
 * or one ending up to LOOKBACK_BLOCKS blocks before it, if long enough to have been cached.
 * -1 when there is none.
 */
function longestCachedPrefix(input: BreakpointCacheInput, prefixes: readonly Prefix[], breakpoints: readonly number[]): number {
  let best = -1;
  for (const at of breakpoints) {
    for (let i = at; i >= Math.max(0, at - LOOKBACK_BLOCKS) && i > best; i -= 1) {
      const prefix = prefixes[i];
      if (prefix && prefix.tokens >= input.minTokens && input.store.has(input.partition, prefix.hash)) {
        best = i;
        break;
      }
    }
  }
  return best;
}

/**
 * A read renews every cached entry along the prefix it read; a breakpoint there asking for a
 * longer TTL than its entry has extends the entry to it.
 */
function renewRead(input: BreakpointCacheInput, prefixes: readonly Prefix[], readIndex: number): void {
  for (let i = 0; i <= readIndex; i += 1) {
    const prefix = prefixes[i]!;
    const ttl = input.segments[i]!.breakpoint;
    if (input.store.read(input.partition, prefix.hash) !== undefined && ttl) input.store.write(input.partition, prefix.hash, prefix.tokens, TTL_MS[ttl]);
  }
}

/**
 * Anthropic's prompt cache for one request: it reads the longest cached prefix (renewing the
 * entries along it) and writes every later breakpoint's prefix that is long enough. The write
 * is the tokens between the read prefix and the last breakpoint written, each stretch counted
 * under the TTL of the breakpoint that ends it. Prefixes below the minimum are neither read nor
 * written, so a request whose breakpoints all fall short reports no cache activity.
 */
export function applyBreakpointCache(input: BreakpointCacheInput): PromptCacheOutcome {
  const breakpoints = input.segments.flatMap((segment, index) => (segment.breakpoint ? [index] : []));
  if (breakpoints.length === 0) return NO_CACHE_ACTIVITY;
  const prefixes = prefixesOf(input.segments);
  const readIndex = longestCachedPrefix(input, prefixes, breakpoints);
  renewRead(input, prefixes, readIndex);
  const read = readIndex >= 0 ? prefixes[readIndex]!.tokens : 0;
  const write: CacheWrite = { fiveMinute: 0, oneHour: 0 };
  let covered = read;
  for (const at of breakpoints) {
    const prefix = prefixes[at]!;
    const ttl = input.segments[at]!.breakpoint!;
    if (at <= readIndex || prefix.tokens < input.minTokens) continue;
    input.store.write(input.partition, prefix.hash, prefix.tokens, TTL_MS[ttl]);
    if (ttl === '1h') write.oneHour += prefix.tokens - covered;
    else write.fiveMinute += prefix.tokens - covered;
    covered = prefix.tokens;
  }
  return { read, write };
}
