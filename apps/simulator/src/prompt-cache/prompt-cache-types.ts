/** How long an Anthropic-style cache entry lives without being read. */
export type CacheTtl = '5m' | '1h';

/**
 * One cacheable block of a prompt in the provider's order (tools, system, messages): what
 * identifies it in a prefix hash, the characters the simulator's token estimate counts for it,
 * and the TTL of a breakpoint placed on it.
 */
export interface CacheSegment {
  identity: string;
  chars: number;
  breakpoint?: CacheTtl;
}

/** Tokens written to the cache by a request, per lifetime. */
export interface CacheWrite {
  fiveMinute: number;
  oneHour: number;
}

/** What a request did to the cache, in tokens: the prefix it read and what it wrote after it. */
export interface PromptCacheOutcome {
  read: number;
  write: CacheWrite;
}

/** OpenAI's retention choices: in memory (minutes of inactivity) or extended to 24 hours. */
export type CacheRetention = 'in_memory' | '24h';

/**
 * How a protocol caches a prompt: explicit breakpoints (Anthropic, Bedrock) or OpenAI's automatic
 * prefix caching, grouped by `prompt_cache_key` when one is sent.
 */
export type PromptCacheQuery =
  | { kind: 'breakpoints'; segments: readonly CacheSegment[] }
  | { kind: 'automatic'; key?: string; retention: CacheRetention };

export const NO_CACHE_ACTIVITY: PromptCacheOutcome = { read: 0, write: { fiveMinute: 0, oneHour: 0 } };

/** Tokens as the simulator estimates them (see countInputTokens): a quarter per character, rounded up. */
export function tokensOfChars(chars: number): number {
  return Math.ceil(chars / 4);
}

/** Claude's limit on breakpoints in one request, on Anthropic's API and Bedrock's alike. */
export const MAX_BREAKPOINTS = 4;

export function tooManyBreakpoints(count: number): string | undefined {
  return count > MAX_BREAKPOINTS ? `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${count}.` : undefined;
}

export const TTL_ORDER_MESSAGE =
  "a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.";

/** Claude refuses a 1-hour breakpoint after a 5-minute one (the shorter would expire inside the longer): its index, or -1. */
export function ttlOrderViolation(ttls: readonly CacheTtl[]): number {
  const firstFiveMinute = ttls.indexOf('5m');
  return firstFiveMinute < 0 ? -1 : ttls.indexOf('1h', firstFiveMinute);
}
