/**
 * The routing sanity set (`libs/mixture-lab/sanity/`, rationale in its README): everyday prompts,
 * each labelled by the tier a careful engineer would pay for — `cheap` or `strong` — and the
 * agreement of `rosetta/auto`'s choice with those labels on the shipped catalog. It measures what
 * the RouterBench rows cannot: whether a greeting goes to a cheap model and a proof to a strong one.
 *
 * A model's tier is its price, not its name: `cheap` when its cheapest endpoint charges at most
 * `CHEAP_TIER_MAX_COMPLETION_PRICE` per completion token, `strong` otherwise.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Candidate, type RouteDecision, type RouterArtefact, decide } from '@rosetta/mixture';

export type Tier = 'cheap' | 'strong';

export interface SanityPrompt {
  id: string;
  label: Tier;
  /** The MT-Bench category a person would give it (null for small talk). */
  category: string | null;
  prompt: string;
  why: string;
  /** `dev` prompts were looked at while the router was tuned; `holdout` ones only at the end. */
  split: 'dev' | 'holdout';
}

/** USD per completion token: $2.50 per million (Gemini 2.5 Flash's price) or less is the cheap tier. */
export const CHEAP_TIER_MAX_COMPLETION_PRICE = 2.5e-6;

/** The shipped set, beside the code (`dist/libs/mixture-lab/sanity` once built). */
export function defaultSanityPath(): string {
  return join(__dirname, '..', 'sanity', 'routing-sanity.jsonl');
}

/** The shipped catalog (`libs/registry/catalog/catalog.json`, beside the code in dist/ too). */
export function defaultCatalogPath(): string {
  return join(__dirname, '..', '..', 'registry', 'catalog', 'catalog.json');
}

function field(record: Record<string, unknown>, name: string, line: number): string {
  const value = record[name];
  if (typeof value !== 'string' || value === '') throw new Error(`sanity set line ${line}: '${name}' must be a non-empty string`);
  return value;
}

/** Reads the JSONL set; `{attach}` in a prompt is replaced by the named file beside it. */
export function loadSanitySet(path: string = defaultSanityPath()): SanityPrompt[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line, i) => [line.trim(), i + 1] as const)
    .filter(([line]) => line !== '')
    .map(([line, n]) => {
      const record = JSON.parse(line) as Record<string, unknown>;
      const label = field(record, 'label', n);
      const split = field(record, 'split', n);
      if (label !== 'cheap' && label !== 'strong') throw new Error(`sanity set line ${n}: label must be cheap or strong`);
      if (split !== 'dev' && split !== 'holdout') throw new Error(`sanity set line ${n}: split must be dev or holdout`);
      let prompt = field(record, 'prompt', n);
      if (typeof record['attach'] === 'string') prompt = prompt.replace('{attach}', readFileSync(join(dirname(path), record['attach']), 'utf8'));
      const category = typeof record['category'] === 'string' ? record['category'] : null;
      return { id: field(record, 'id', n), label, category, prompt, why: field(record, 'why', n), split };
    });
}

interface CatalogShape {
  providers: Array<{ slug: string; builtin?: boolean; platform?: string }>;
  models: Array<{ name: string; kind?: string; endpoints?: Array<{ provider: string; pricing: { prompt: string; completion: string } }> }>;
}

/**
 * The catalog's chat models as the gateway offers them to the router (prices of the cheapest endpoint),
 * `builtin`: only those served by the built-in providers (OpenAI, Anthropic, Gemini), the pool of a
 * deployment configured with those three keys; `catalog`: every model.
 */
export function catalogCandidates(path: string = defaultCatalogPath(), pool: 'builtin' | 'catalog' = 'builtin'): Candidate[] {
  const catalog = JSON.parse(readFileSync(path, 'utf8')) as CatalogShape;
  // The built-in public APIs: the cloud built-ins (bedrock, vertex) serve only once their variables are set.
  const builtin = new Set(catalog.providers.filter((p) => p.builtin && !p.platform).map((p) => p.slug));
  // Embedding models answer no chat request; rosetta/auto never routes to them.
  return catalog.models.filter((m) => (m.kind ?? 'chat') === 'chat').flatMap((m) => {
    const endpoints = (m.endpoints ?? []).filter((e) => pool === 'catalog' || builtin.has(e.provider));
    const prices = endpoints.map((e) => ({ prompt: Number(e.pricing.prompt), completion: Number(e.pricing.completion) })).sort((a, b) => a.prompt + a.completion - (b.prompt + b.completion));
    const cheapest = prices[0];
    return cheapest ? [{ id: `rosetta/${m.name}`, promptPrice: cheapest.prompt, completionPrice: cheapest.completion }] : [];
  });
}

export function tierOf(candidate: Candidate | undefined): Tier {
  return candidate && (candidate.completionPrice ?? 0) <= CHEAP_TIER_MAX_COMPLETION_PRICE ? 'cheap' : 'strong';
}

export interface SanityOutcome {
  id: string;
  label: Tier;
  split: 'dev' | 'holdout';
  chosen: string;
  tier: Tier;
  agrees: boolean;
  /** The category signal and the person's category (null for small talk). */
  category: { signal: string; labelled: string | null };
  mode: RouteDecision['mode'];
}

export interface SanityReport {
  prompts: number;
  knob: number | null;
  agreement: number;
  by_split: Record<'dev' | 'holdout', { prompts: number; agreement: number }>;
  by_label: Record<Tier, { prompts: number; agreement: number }>;
  /** How often the category signal matches the person's category, over the prompts that have one. */
  category_accuracy: number;
  disagreements: SanityOutcome[];
  outcomes: SanityOutcome[];
}

const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;

function share(outcomes: SanityOutcome[]): { prompts: number; agreement: number } {
  return { prompts: outcomes.length, agreement: r4(outcomes.filter((o) => o.agrees).length / Math.max(1, outcomes.length)) };
}

/** Routes every prompt as the gateway would (knob: the artefact's default unless given). */
export function evaluateSanity(artefact: RouterArtefact, prompts: SanityPrompt[], candidates: Candidate[], knob?: number): SanityReport {
  const byId = new Map(candidates.map((c) => [c.id, c]));
  const outcomes = prompts.map((p): SanityOutcome => {
    const d = decide({ text: p.prompt, candidates, knob }, artefact);
    const tier = tierOf(byId.get(d.chosen));
    const signal = d.signals.find((s) => s.name === 'category')?.value;
    return { id: p.id, label: p.label, split: p.split, chosen: d.chosen, tier, agrees: tier === p.label, category: { signal: String(signal), labelled: p.category }, mode: d.mode };
  });
  const categorised = outcomes.filter((o) => o.category.labelled !== null);
  return {
    prompts: outcomes.length,
    knob: knob ?? null,
    agreement: share(outcomes).agreement,
    by_split: { dev: share(outcomes.filter((o) => o.split === 'dev')), holdout: share(outcomes.filter((o) => o.split === 'holdout')) },
    by_label: { cheap: share(outcomes.filter((o) => o.label === 'cheap')), strong: share(outcomes.filter((o) => o.label === 'strong')) },
    category_accuracy: r4(categorised.filter((o) => o.category.signal === o.category.labelled).length / Math.max(1, categorised.length)),
    disagreements: outcomes.filter((o) => !o.agrees),
    outcomes,
  };
}
