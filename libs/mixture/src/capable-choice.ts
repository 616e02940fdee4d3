/**
 * Routing among catalog models (no fitted data): the cheapest *capable* candidate. Each model's
 * expected quality for the prompt comes from its profile or declared prior at the prompt's
 * difficulty (model-profiles.ts, difficulty.ts); a candidate is capable when that quality is within
 * the knob's slack of the best candidate's, and the cheapest capable one is chosen. On small talk
 * every model is within a hair of the best, so the cheapest answers; on a proof only the strongest
 * are, so one of them does. The slack, not a price of quality, is what the knob moves: expected
 * costs of catalog calls span four orders of magnitude with the prompt's length, while "at most
 * 0.03 worse than the best" means the same on every prompt — and a free model is never chosen
 * for a prompt it is expected to fail far more often than the best.
 */
import { answerKindOf } from './answer-extraction';
import { catalogCost, fittedCost } from './cost-model';
import { type CatalogRouting, PROFILES, expectedQuality, figureFor } from './model-profiles';
import type { Runtime } from './runtime';
import { viewOf } from './runtime';
import { signalValue } from './signals';
import type { Candidate, RouteDecision, RouteMode, ScoredCandidate, Signal } from './types';

/** The slack at a knob: geometric from knob 0 to the default knob, then linear down to 0 at 1. */
export function slackForKnob(knob: number, defaultKnob: number, routing: CatalogRouting = PROFILES.routing): number {
  const k = Math.max(0, Math.min(1, knob));
  const { slack_at_knob_0: s0, slack_at_default_knob: sd } = routing;
  if (k <= defaultKnob && defaultKnob > 0) return s0 * (sd / s0) ** (k / defaultKnob);
  return defaultKnob >= 1 ? sd : (sd * (1 - k)) / (1 - defaultKnob);
}

const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const usd = (x: number): number => Number(x.toPrecision(4));

export interface CapableInput {
  text: string;
  candidates: Candidate[];
  knob: number;
  defaultKnob: number;
  mode: RouteMode;
  signals: Signal[];
}

type Unranked = Omit<ScoredCandidate, 'score' | 'capable'>;

function scoreOne(rt: Runtime, c: Candidate, input: CapableInput, facts: { tokens: number; category?: string; difficulty: number; outputKind: string }): Unranked | null {
  const j = rt.modelIndex.get(c.id);
  if (j !== undefined) {
    const pred = viewOf(rt, input.text).prediction;
    return { id: c.id, quality: r4(pred.quality[j] as number), costUsd: usd(fittedCost(rt.artefact.cost, j, pred.cluster, facts.tokens)), basis: 'fitted' };
  }
  const figure = figureFor(c.id, facts.category, c.prior);
  if (!figure) return null;
  const quality = r4(expectedQuality(figure.value, facts.difficulty));
  return { id: c.id, quality, costUsd: usd(catalogCost(c, facts.tokens, facts.outputKind)), basis: figure.basis, source: figure.source };
}

/** Capable candidates first, cheapest first (score in (0.5, 1]); then the rest by quality (score ≤ 0). */
function rank(scored: Unranked[], threshold: number): ScoredCandidate[] {
  const maxCost = Math.max(0, ...scored.map((c) => c.costUsd));
  return scored.map((c) => {
    const capable = c.quality >= threshold - 1e-9;
    const score = capable ? r4(1 - (maxCost > 0 ? c.costUsd / maxCost : 0) / 2) : r4(c.quality - 1);
    return { ...c, score, capable };
  });
}

/** The decision among catalog candidates; `compare` is the router's deterministic order. */
export function decideCapable(rt: Runtime, input: CapableInput, compare: (a: ScoredCandidate, b: ScoredCandidate) => number): RouteDecision {
  const category = signalValue(input.signals, 'category');
  const tokens = signalValue(input.signals, 'prompt_tokens');
  const difficulty = signalValue(input.signals, 'difficulty');
  const kind = answerKindOf(input.text);
  const facts = {
    tokens: typeof tokens === 'number' ? tokens : viewOf(rt, input.text).tokens,
    category: typeof category === 'string' ? category : undefined,
    difficulty: typeof difficulty === 'number' ? difficulty : 0,
    outputKind: kind === 'choice' ? 'choice' : typeof category === 'string' ? category : 'default',
  };
  const excluded: Array<{ id: string; reason: string }> = [];
  const scored: Unranked[] = [];
  for (const c of input.candidates) {
    const s = scoreOne(rt, c, input, facts);
    if (s) scored.push(s);
    else excluded.push({ id: c.id, reason: 'no fitted data, catalog profile or declared router_prior: not routed to' });
  }
  if (scored.length === 0) throw new Error('decide: no candidate has fitted data, a catalog profile or a declared router_prior');
  const best = Math.max(...scored.map((c) => c.quality));
  const slack = slackForKnob(input.knob, input.defaultKnob);
  const threshold = r4(best - slack);
  const list = rank(scored, threshold).sort(compare);
  const chosen = list[0] as ScoredCandidate;
  const difficultyDetail = input.signals.find((s) => s.name === 'difficulty')?.detail;
  const reasons = [
    `knob ${input.knob} → slack ${r4(slack)}: capable = expected quality ≥ ${threshold} (best ${best} − slack)`,
    `difficulty ${facts.difficulty}${difficultyDetail ? ` (${difficultyDetail})` : ''}; category ${facts.category ?? 'unknown'}`,
    `cheapest capable: ${chosen.id} (quality ${chosen.quality}, $${chosen.costUsd}; ${chosen.source ?? chosen.basis})`,
  ];
  const base = { knob: input.knob, signals: input.signals, candidates: list, scoring: 'capable' as const, threshold, ...(excluded.length ? { excluded } : {}) };
  const plan = input.mode === 'cascade' && kind === 'choice' ? probesFor(list, chosen, best - slackForKnob(0, input.defaultKnob)) : null;
  if (plan) {
    reasons.push(`multiple choice: ${plan[0]} and ${plan[1]} first, accepted when they agree, else ${chosen.id}`);
    return { chosen: plan[0] as string, mode: 'cascade', plan, reasons, ...base };
  }
  return { chosen: chosen.id, mode: 'single', plan: [chosen.id], reasons, ...base };
}

/**
 * A cheap probe for a multiple-choice prompt whose capable choice is not cheap: the two cheapest
 * candidates that cost at most a quarter of it and are not hopeless (within the knob-0 slack),
 * then the capable choice. Answers to multiple choice compare, so agreement is a real test.
 */
function probesFor(list: ScoredCandidate[], chosen: ScoredCandidate, floor: number): string[] | null {
  const probes = list
    .filter((c) => c.id !== chosen.id && c.quality >= floor && c.costUsd <= 0.25 * chosen.costUsd)
    .sort((a, b) => a.costUsd - b.costUsd || b.quality - a.quality || (a.id < b.id ? -1 : 1))
    .slice(0, 2);
  return probes.length === 2 ? [...probes.map((c) => c.id), chosen.id] : null;
}
