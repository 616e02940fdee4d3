/**
 * What the router believes about a model it has no fitted data for: the catalog profiles
 * (`profiles.json`, per-category figures, each naming the benchmark it was mapped from) or a prior
 * the operator declared (`router_prior` in the providers file or through the admin API). A figure
 * is P(acceptable answer) on a prompt of difficulty 0; `expectedQuality` turns it into the
 * expectation for a prompt of a given difficulty (difficulty.ts). A model with neither has no
 * basis to be routed to and stays out of `rosetta/auto`.
 */
import profilesJson from './profiles.json';

export interface ProfileFigure {
  value: number;
  from: string;
}

export interface ModelProfile {
  sources: string[];
  quality: Record<string, ProfileFigure>;
  default?: number;
}

/** How catalog models are chosen (see `routing.why` in profiles.json and capable-choice.ts). */
export interface CatalogRouting {
  slack_at_knob_0: number;
  slack_at_default_knob: number;
}

export interface ProfileTable {
  version: string;
  routing: CatalogRouting;
  models: Record<string, ModelProfile>;
}

export const PROFILES: ProfileTable = profilesJson as unknown as ProfileTable;

/**
 * An operator's prior for a model: figures on the profiles' scale, `default` for any category
 * without its own. `source` says where it was declared (`providers file`, `admin API`).
 */
export interface DeclaredPrior {
  quality: { default: number } & Record<string, number>;
  source: string;
}

/** Where a candidate's quality comes from: fitted data, a declared prior, or the catalog profile. */
export type QualityBasis = 'fitted' | 'prior' | 'profile';

export interface Figure {
  value: number;
  basis: Exclude<QualityBasis, 'fitted'>;
  /** Human-readable origin, e.g. `profile coding: HumanEval 87.2` or `prior (providers file) default`. */
  source: string;
}

function lookup(id: string, table: ProfileTable): ModelProfile | undefined {
  return table.models[id] ?? table.models[id.startsWith('rosetta/') ? id : `rosetta/${id}`];
}

function meanOf(profile: ModelProfile): number {
  const values = Object.values(profile.quality).map((f) => f.value);
  return profile.default ?? values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

/**
 * The figure the router uses for a model and a prompt category: the operator's prior first (it
 * is the operator's word about their deployment), then the shipped profile; null when neither.
 */
export function figureFor(id: string, category: string | undefined, prior?: DeclaredPrior, table: ProfileTable = PROFILES): Figure | null {
  // Decided on every request for every candidate: the figures (and their source strings) are built once.
  const memo = prior ? (priorFigures.get(prior) ?? priorFigures.set(prior, new Map()).get(prior)!) : table === PROFILES ? profileFigures : undefined;
  const key = prior ? (category ?? '') : `${id}\u0000${category ?? ''}`;
  const hit = memo?.get(key);
  if (hit !== undefined) return hit;
  const figure = figureOf(id, category, prior, table);
  if (memo && memo.size < 10_000) memo.set(key, figure);
  return figure;
}

const profileFigures = new Map<string, Figure | null>();
const priorFigures = new WeakMap<DeclaredPrior, Map<string, Figure | null>>();

function figureOf(id: string, category: string | undefined, prior: DeclaredPrior | undefined, table: ProfileTable): Figure | null {
  if (prior) {
    const own = category !== undefined ? prior.quality[category] : undefined;
    return own !== undefined
      ? { value: own, basis: 'prior', source: `prior (${prior.source}) ${category}` }
      : { value: prior.quality.default, basis: 'prior', source: `prior (${prior.source}) default` };
  }
  const profile = lookup(id, table);
  if (!profile) return null;
  const figure = category ? profile.quality[category] : undefined;
  if (figure) return { value: figure.value, basis: 'profile', source: `profile ${category}: ${figure.from}` };
  return { value: meanOf(profile), basis: 'profile', source: 'profile: mean of its categories' };
}

/** Whether a model has a profile in the table. */
export function hasProfile(id: string, table: ProfileTable = PROFILES): boolean {
  return lookup(id, table) !== undefined;
}

const logit = (p: number): number => Math.log(p / (1 - p));
const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** P(acceptable answer) on a prompt of difficulty `d` for a model whose figure is `value`. */
export function expectedQuality(value: number, difficulty: number): number {
  const p = Math.min(0.999, Math.max(0.001, value));
  return sigmoid(logit(p) - difficulty);
}

export function profiledModels(table: ProfileTable = PROFILES): string[] {
  return Object.keys(table.models).sort();
}
