import type { ExternalVerdict, ModelCheck } from '@rosetta/guardrails';
import { sanitiseKind } from './check-kind';
import { LLAMA_GUARD_CATEGORIES } from './llama-guard-categories';
import { cleanCategory, rubricCategories, type ModelCheckFormat } from './model-check-prompt';

/** The kind of an `unsafe` answer that names no category. */
export const UNSPECIFIED_KIND = 'unspecified';
/** The kind of a rubric category that is not a short identifier even with its spaces as `_`. */
export const MODEL_KIND = 'model';

const BAD_VERDICT: ExternalVerdict = { action: 'unavailable', reason: 'bad_verdict' };
const LLAMA_GUARD_CODE = /^S\d{1,2}$/i;

/**
 * A classifier's answer, read strictly: `safe`, or `unsafe` and on the next line the categories,
 * comma-separated (Llama Guard: its codes, `S1,S10`; a rubric model: categories as the rubric
 * listed them). Case and surrounding blank space are forgiven; anything else — prose, an unknown
 * category, a third line, an empty item — is `unavailable: bad_verdict`. A model check answers
 * block or allow: with `categories` on a Llama Guard check, only those codes block.
 */
export function parseModelCheckAnswer(answer: string, format: ModelCheckFormat, check: ModelCheck): ExternalVerdict {
  const lines = answer
    .trim()
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const verdict = lines[0]?.toLowerCase();
  if (verdict === 'safe' && lines.length === 1) return { action: 'allow' };
  if (verdict !== 'unsafe' || lines.length > 2) return BAD_VERDICT;
  const items = lines[1] === undefined ? [] : lines[1].split(',').map((item) => item.trim());
  if (items.some((item) => item === '')) return BAD_VERDICT;
  const kinds = format === 'llama-guard' ? llamaGuardKinds(items, check) : rubricKinds(items, check);
  if (kinds === null) return BAD_VERDICT;
  if (items.length === 0) return { action: 'block', kinds: [UNSPECIFIED_KIND] };
  return kinds.length === 0 ? { action: 'allow' } : { action: 'block', kinds };
}

/** The kinds of the codes the check acts on (all of them without `categories`), or null for a non-code. */
function llamaGuardKinds(items: readonly string[], check: ModelCheck): string[] | null {
  if (!items.every((item) => LLAMA_GUARD_CODE.test(item))) return null;
  const wanted = check.categories ? new Set(check.categories.map((c) => c.trim().toLowerCase())) : null;
  const kinds: string[] = [];
  for (const item of items) {
    const code = item.toUpperCase();
    const kind = LLAMA_GUARD_CATEGORIES[code] ?? code.toLowerCase();
    if (wanted && !wanted.has(code.toLowerCase()) && !wanted.has(kind)) continue;
    if (!kinds.includes(kind)) kinds.push(kind);
  }
  return kinds;
}

/** The kinds of the named categories, or null when one is not on the rubric. */
function rubricKinds(items: readonly string[], check: ModelCheck): string[] | null {
  const listed = new Map(rubricCategories(check).map((c) => [c.toLowerCase(), c]));
  const kinds: string[] = [];
  for (const item of items) {
    const category = listed.get(cleanCategory(item).toLowerCase());
    if (category === undefined) return null;
    const kind = sanitiseKind(category.replace(/ /g, '_'), MODEL_KIND);
    if (!kinds.includes(kind)) kinds.push(kind);
  }
  return kinds;
}
