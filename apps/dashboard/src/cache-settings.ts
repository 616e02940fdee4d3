/**
 * The response cache and prompt caching settings of a plan or a key (issue 29) as the forms edit
 * them and the tables show them. Pure: no page, no request.
 */
import type { CacheMode, CacheSetting, PromptCache } from './types';

export const DEFAULT_TTL_S = 3600;
export const DEFAULT_SIMILARITY = 0.95;
export const MAX_TTL_S = 2_592_000;

/**
 * What the form holds. `''` is "inherit from plan", offered on keys only: a plan has nothing to
 * inherit from, so its null reads as off. TTL and similarity are kept as typed text, so a value
 * the gateway refuses goes to it as is and comes back named (`cache.ttl_s`).
 */
export interface CacheDraft {
  mode: CacheMode | '';
  ttl: string;
  similarity: string;
  prompt: PromptCache | '';
}

/** Whose setting the form edits: a key may inherit; a plan may not. */
export type CacheOwner = 'key' | 'plan';

export function cacheDraftOf(cache: CacheSetting | null | undefined, prompt: PromptCache | null | undefined, owner: CacheOwner): CacheDraft {
  const unset = owner === 'key' ? '' : 'off';
  return {
    mode: cache?.mode ?? unset,
    ttl: String(cache?.ttl_s ?? DEFAULT_TTL_S),
    similarity: String(cache?.similarity ?? DEFAULT_SIMILARITY),
    prompt: prompt ?? unset,
  };
}

/** A number when the text is one; otherwise the text itself (the gateway names the field); empty: left out. */
function numberOr(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * `cache` and `prompt_cache` as the admin API takes them: null for "inherit"; `off` without a TTL
 * (it keeps nothing); a TTL or similarity left empty is left out, so the gateway's default applies.
 * Exact mode carries a similarity that parses, so a later switch to semantic keeps the one set.
 */
export function cacheBodyOf(draft: CacheDraft): { cache: Record<string, unknown> | null; prompt_cache: PromptCache | null } {
  const prompt_cache = draft.prompt === '' ? null : draft.prompt;
  if (draft.mode === '') return { cache: null, prompt_cache };
  if (draft.mode === 'off') return { cache: { mode: 'off' }, prompt_cache };
  const similarity = numberOr(draft.similarity);
  const cache: Record<string, unknown> = { mode: draft.mode, ttl_s: numberOr(draft.ttl) };
  if (draft.mode === 'semantic' || typeof similarity === 'number') cache['similarity'] = similarity;
  return { cache: Object.fromEntries(Object.entries(cache).filter(([, value]) => value !== undefined)), prompt_cache };
}

/** Seconds in the largest unit that divides them: 300 → "5 min", 3600 → "1 h", 90 → "90 s". */
export function duration(seconds: number): string {
  const units: Array<[string, number]> = [['d', 86_400], ['h', 3600], ['min', 60]];
  for (const [unit, size] of units) if (seconds >= size && seconds % size === 0) return `${seconds / size} ${unit}`;
  return `${seconds} s`;
}

export const MODE_LABELS: Record<CacheMode, string> = { off: 'Off', exact: 'Exact', semantic: 'Semantic' };

/** A setting in few characters, for a table cell or a select's option: "Exact, 1 h", "Semantic ≥ 0.9, 5 min", "Off". */
export function cacheSummary(cache: CacheSetting | null | undefined): string {
  if (!cache || cache.mode === 'off') return 'Off';
  const similar = cache.mode === 'semantic' ? ` ≥ ${cache.similarity}` : '';
  return `${MODE_LABELS[cache.mode]}${similar}, ${duration(cache.ttl_s)}`;
}

/** A plan's prompt caching: its null is off. */
export function promptSummary(prompt: PromptCache | null | undefined): string {
  return prompt === 'auto' ? 'Auto' : 'Off';
}
