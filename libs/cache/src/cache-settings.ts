/**
 * The response cache and provider prompt caching as an operator sets them on a plan or a key
 * (ARCHITECTURE §9). A key's setting wins over its plan's; null on the key means "as its plan".
 */

export type ResponseCacheMode = 'off' | 'exact' | 'semantic';
export const RESPONSE_CACHE_MODES: readonly ResponseCacheMode[] = ['off', 'exact', 'semantic'];

export type PromptCacheMode = 'auto' | 'off';
export const PROMPT_CACHE_MODES: readonly PromptCacheMode[] = ['auto', 'off'];

export interface ResponseCacheSettings {
  mode: ResponseCacheMode;
  /** How long an answer may be served, seconds. */
  ttlS: number;
  /** Semantic mode: the least cosine similarity of the last user turn that counts as the same. */
  similarity: number;
}

export const DEFAULT_CACHE_TTL_S = 3600;
export const MAX_CACHE_TTL_S = 30 * 24 * 3600;
export const DEFAULT_CACHE_SIMILARITY = 0.95;

/** What a plan or key carries: either may leave either setting to the level above. */
export interface CacheSettingsHolder {
  cache: ResponseCacheSettings | null;
  promptCache: PromptCacheMode | null;
}

/** The settings in force for a key on a plan: the key's, else the plan's, else off. */
export function effectiveCache(key: Partial<CacheSettingsHolder> | undefined, plan: Partial<CacheSettingsHolder> | undefined): { cache: ResponseCacheSettings | null; promptCache: PromptCacheMode } {
  const cache = key?.cache ?? plan?.cache ?? null;
  return {
    cache: cache && cache.mode !== 'off' ? cache : null,
    promptCache: key?.promptCache ?? plan?.promptCache ?? 'off',
  };
}

/** The admin API's shape, which the plans' and keys' jsonb columns keep too. */
export interface CacheSettingsJson {
  mode: ResponseCacheMode;
  ttl_s: number;
  similarity: number;
}

export function presentCacheSettings(settings: ResponseCacheSettings | null): CacheSettingsJson | null {
  return settings && { mode: settings.mode, ttl_s: settings.ttlS, similarity: settings.similarity };
}

/** A validated admin body's `cache` (defaults filled in); undefined leaves it, null clears it. */
export function cacheSettingsOf(body: { mode: string; ttl_s?: number; similarity?: number } | null | undefined): ResponseCacheSettings | null | undefined {
  if (body === undefined || body === null) return body;
  return { mode: body.mode as ResponseCacheMode, ttlS: body.ttl_s ?? DEFAULT_CACHE_TTL_S, similarity: body.similarity ?? DEFAULT_CACHE_SIMILARITY };
}

/** The stored column (jsonb) back into settings; anything unreadable is treated as off. */
export function cacheSettingsFromColumn(value: unknown): ResponseCacheSettings | null {
  if (typeof value !== 'object' || value === null) return null;
  const { mode, ttl_s: ttl, similarity } = value as Record<string, unknown>;
  if (typeof mode !== 'string' || !RESPONSE_CACHE_MODES.includes(mode as ResponseCacheMode)) return null;
  return {
    mode: mode as ResponseCacheMode,
    ttlS: typeof ttl === 'number' ? ttl : DEFAULT_CACHE_TTL_S,
    similarity: typeof similarity === 'number' ? similarity : DEFAULT_CACHE_SIMILARITY,
  };
}

export function promptCacheFromColumn(value: unknown): PromptCacheMode | null {
  return value === 'auto' || value === 'off' ? value : null;
}
