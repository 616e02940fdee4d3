/**
 * `decide`: the routing decision for one prompt. When every candidate has fitted data they are
 * scored as quality − λ(knob)·cost; ties go to higher quality, then lower cost, then id. In
 * cascade mode the plan comes from the fitted policy of the prompt's cluster (or, without one,
 * cheapest candidates first and the best one last), and `decideCascadeStep` walks it. Catalog
 * candidates (profiles, declared priors) are chosen as the cheapest capable one instead
 * (capable-choice.ts).
 */
import type { CanonicalRequest } from '@rosetta/canonical';
import type { RouterArtefact } from './artefact';
import { answerKindOf } from './answer-extraction';
import { gridPointFor, lambdaForKnob } from './calibration';
import { fittedCost } from './cost-model';
import { decideCapable } from './capable-choice';
import { type QualityBasis, hasProfile } from './model-profiles';
import { type Runtime, runtimeOf, viewOf } from './runtime';
import { extractSignals, signalValue } from './signals';
import type { Candidate, RouteDecision, RouteMode, ScoredCandidate, Signal } from './types';

export interface DecideInput {
  text: string;
  candidates: Candidate[];
  /** 0 = cost-saving … 1 = quality-first; the artefact's default when absent. */
  knob?: number;
  signals?: Signal[];
  mode?: RouteMode;
  request?: CanonicalRequest;
}

const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const usd = (x: number): number => Number(x.toPrecision(4));

/** Deterministic order: score, then quality, then lower cost, then id. */
export function compareCandidates(a: ScoredCandidate, b: ScoredCandidate): number {
  return b.score - a.score || b.quality - a.quality || a.costUsd - b.costUsd || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

interface Scored {
  list: ScoredCandidate[];
  cluster: number;
  clusterName: string | null;
}

function scoreCandidates(rt: Runtime, input: DecideInput, signals: Signal[], lambda: number): Scored {
  const a = rt.artefact;
  const view = viewOf(rt, input.text);
  const pred = view.prediction;
  const tokenSignal = signalValue(signals, 'prompt_tokens');
  const tokens = typeof tokenSignal === 'number' ? tokenSignal : view.tokens;
  const list = input.candidates.map((c) => {
    const j = rt.modelIndex.get(c.id) as number;
    const quality = pred.quality[j] as number;
    const costUsd = fittedCost(a.cost, j, pred.cluster, tokens);
    return { id: c.id, quality: r4(quality), costUsd: usd(costUsd), score: r4(quality - lambda * costUsd), basis: 'fitted' as const };
  });
  list.sort(compareCandidates);
  return { list, cluster: pred.cluster, clusterName: pred.clusterName };
}

/** Cascade plan from the fitted policy, when the cluster has one and its models are available. */
function fittedPlan(rt: Runtime, cluster: number, knob: number, text: string, available: Set<string>): string[] | null {
  const policy = rt.artefact.cascade.policy;
  const row = policy.choice[cluster];
  if (!row) return null;
  const curve = rt.artefact.cascade.curve;
  const plan = policy.plans[row[gridPointFor(curve.lambdas, curve.knobs, knob, text)] as number];
  if (!plan || !plan.models.every((m) => available.has(m))) return null;
  return plan.models;
}

/** Without a fitted plan: the two cheapest candidates at most 25% of the best one's cost, then the best. */
function genericPlan(list: ScoredCandidate[]): string[] | null {
  const best = [...list].sort((x, y) => y.quality - x.quality || compareCandidates(x, y))[0];
  if (!best) return null;
  const cheap = list
    .filter((c) => c.id !== best.id && c.costUsd <= 0.25 * best.costUsd)
    .sort((x, y) => x.costUsd - y.costUsd || y.quality - x.quality || (x.id < y.id ? -1 : 1))
    .slice(0, 2);
  return cheap.length === 2 ? [...cheap.map((c) => c.id), best.id] : null;
}

/** What the router would score a candidate from, or null: it then stays out of rosetta/auto. */
export function qualityBasisOf(candidate: Candidate, artefact: RouterArtefact): QualityBasis | null {
  if (runtimeOf(artefact).modelIndex.has(candidate.id)) return 'fitted';
  if (candidate.prior) return 'prior';
  return hasProfile(candidate.id) ? 'profile' : null;
}

/** The artefact's default knob for a mode (each mode has its own calibration). */
export function defaultKnobFor(artefact: RouterArtefact, mode: RouteMode): number {
  return artefact.defaults.knobByMode[mode];
}

export function decide(input: DecideInput, artefact: RouterArtefact): RouteDecision {
  if (input.candidates.length === 0) throw new Error('decide: no candidates');
  const rt = runtimeOf(artefact);
  const mode = input.mode ?? artefact.defaults.mode;
  const defaultKnob = defaultKnobFor(artefact, mode);
  const knob = Math.max(0, Math.min(1, input.knob ?? defaultKnob));
  const signals = input.signals ?? extractSignals({ text: input.text, request: input.request }, { classifier: artefact.classifier });
  if (!input.candidates.every((c) => rt.modelIndex.has(c.id))) {
    return decideCapable(rt, { text: input.text, candidates: input.candidates, knob, defaultKnob, mode, signals }, compareCandidates);
  }
  const curve = mode === 'cascade' ? artefact.cascade.curve : artefact.single;
  const lambda = lambdaForKnob(curve.lambdas, curve.knobs, knob);
  const scored = scoreCandidates(rt, input, signals, lambda);
  const top = scored.list[0] as ScoredCandidate;
  const reasons = [
    `knob ${knob} → λ = ${usd(lambda)} per USD (${mode} calibration)`,
    scored.clusterName ? `prompt resembles the "${scored.clusterName}" training cluster` : 'prompt resembles no training cluster: global priors',
  ];
  let plan: string[] | null = null;
  if (mode === 'cascade') {
    const available = new Set(input.candidates.map((c) => c.id));
    plan = scored.cluster >= 0 ? fittedPlan(rt, scored.cluster, knob, input.text, available) : null;
    if (plan) reasons.push(`fitted cascade policy for this cluster at this knob: ${plan.join(' → ')}`);
    else {
      const kind = answerKindOf(input.text);
      plan = kind === 'choice' || signalValue(signals, 'math') === true ? genericPlan(scored.list) : null;
      if (plan) reasons.push(`no fitted plan: cheapest two first, accept when they agree, else ${plan[2]}`);
    }
  }
  if (!plan || plan.length === 1) {
    const chosen = plan?.[0] ?? top.id;
    reasons.push(plan ? `fitted policy: ${chosen} alone` : `highest score: ${chosen} (quality ${top.quality}, cost $${top.costUsd})`);
    return { chosen, mode: 'single', plan: [chosen], knob, signals, candidates: scored.list, reasons, scoring: 'fitted' };
  }
  return { chosen: plan[0] as string, mode: 'cascade', plan, knob, signals, candidates: scored.list, reasons, scoring: 'fitted' };
}
