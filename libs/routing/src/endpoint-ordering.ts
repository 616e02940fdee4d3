import type { RoutingPreferences } from '@rosetta/canonical';
import type { EndpointStatsView } from '@rosetta/registry';
import type { Candidate } from './endpoint-filters';

const price = (c: Candidate): number => Number(c.endpoint.pricing.prompt) + Number(c.endpoint.pricing.completion);

/**
 * OpenRouter's semantics: `provider_sort` is a strict order by that measure; `provider_order`
 * puts the listed providers first; otherwise load-balance among healthy endpoints with weights
 * of 1/price² (cheaper ones get most traffic), degraded ones after. With `allow_fallbacks:
 * false` only the listed (or first) endpoint is tried.
 */
export function orderCandidates(
  candidates: Candidate[],
  prefs: RoutingPreferences,
  stats: (key: string) => EndpointStatsView,
  random: () => number = Math.random,
): Candidate[] {
  let ordered: Candidate[];
  if (prefs.sort) ordered = sortBy(candidates, prefs.sort, stats);
  else if (prefs.order?.length) ordered = byOrder(candidates, prefs.order, stats, random);
  else ordered = balanced(candidates, stats, random);
  if (prefs.allowFallbacks === false) {
    // Only the listed providers (or the first choice); none of them available means none at all.
    return prefs.order?.length ? ordered.filter((c) => prefs.order!.includes(c.provider.slug)) : ordered.slice(0, 1);
  }
  return ordered;
}

function sortBy(candidates: Candidate[], sort: NonNullable<RoutingPreferences['sort']>, stats: (key: string) => EndpointStatsView): Candidate[] {
  const measure = (c: Candidate): number => {
    const s = stats(c.key);
    if (sort === 'price') return price(c);
    if (sort === 'throughput') return s.throughputP50 === null ? Infinity : -s.throughputP50;
    return s.ttftP50 ?? s.latencyP50 ?? Infinity;
  };
  return [...candidates].sort((a, b) => measure(a) - measure(b) || price(a) - price(b) || a.key.localeCompare(b.key));
}

function byOrder(candidates: Candidate[], order: string[], stats: (key: string) => EndpointStatsView, random: () => number): Candidate[] {
  const listed = order.flatMap((slug) => candidates.filter((c) => c.provider.slug === slug));
  const rest = balanced(candidates.filter((c) => !order.includes(c.provider.slug)), stats, random);
  return [...listed, ...rest];
}

function balanced(candidates: Candidate[], stats: (key: string) => EndpointStatsView, random: () => number): Candidate[] {
  if (candidates.length <= 1) return candidates;
  const healthy: Candidate[] = [];
  const degraded: Candidate[] = [];
  for (const c of candidates) (stats(c.key).status === 0 ? healthy : degraded).push(c);
  return [...weightedShuffle(healthy, random), ...weightedShuffle(degraded, random)];
}

/** Repeatedly draws one candidate with probability proportional to 1/price². */
function weightedShuffle(candidates: Candidate[], random: () => number): Candidate[] {
  const pool = [...candidates];
  const out: Candidate[] = [];
  while (pool.length > 0) {
    const weights = pool.map((c) => 1 / Math.max(price(c), 1e-12) ** 2);
    let pick = random() * weights.reduce((a, b) => a + b, 0);
    let index = 0;
    while (index < pool.length - 1 && pick >= weights[index]!) pick -= weights[index++]!;
    out.push(pool.splice(index, 1)[0]!);
  }
  return out;
}
