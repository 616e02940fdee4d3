/** Shared types of the Mixture-of-Models router (`rosetta/auto`). */
import type { DeclaredPrior, QualityBasis } from './model-profiles';

/** One cheap, deterministic observation about a prompt or request. */
export interface Signal {
  name: string;
  /** Numeric or categorical value (`true`/`false` for flags). */
  value: number | string | boolean;
  /** 0..1: how much the extractor trusts its own value. */
  confidence: number;
  /** What the value is made of, when that is worth showing (e.g. the difficulty's cues). */
  detail?: string;
}

/** One labelled prompt in the RouterBench shape. */
export interface LabelledRow {
  prompt: string;
  /** `eval_name` when the file has one, otherwise the file's base name. */
  task?: string;
  scores: Record<string, 0 | 1>;
  costs: Record<string, number>;
  responses: Record<string, string>;
}

/** A model the router may choose. Prices are USD per token (catalog convention). */
export interface Candidate {
  id: string;
  promptPrice?: number;
  completionPrice?: number;
  /** The operator's declared prior (providers file or admin API), for a model without fitted data. */
  prior?: DeclaredPrior;
}

export interface ScoredCandidate {
  id: string;
  /** Predicted P(correct) for this prompt. */
  quality: number;
  /** Expected USD cost of one call for this prompt. */
  costUsd: number;
  /**
   * The ranking key. Fitted scoring: quality − λ(knob)·costUsd. Capable scoring: in (0, 1] for a
   * capable candidate, higher for a cheaper one; quality − 1 (≤ 0) for the others.
   */
  score: number;
  /** Where `quality` comes from. */
  basis: QualityBasis;
  /** Capable scoring: within the slack of the best quality. */
  capable?: boolean;
  /** The figure behind a profile or prior quality. */
  source?: string;
}

/**
 * `fitted`: every candidate has fitted data (λ trade-off, fitted cascades). `capable`: the cheapest
 * candidate whose expected quality is within the knob's slack of the best one (catalog models).
 */
export type Scoring = 'fitted' | 'capable';

export type RouteMode = 'single' | 'cascade';

export interface RouteDecision {
  /** The model called first (the whole answer in single mode). */
  chosen: string;
  mode: RouteMode;
  /** Models in activation order; in cascade mode later entries are called only on escalation. */
  plan: string[];
  knob: number;
  signals: Signal[];
  candidates: ScoredCandidate[];
  reasons: string[];
  scoring: Scoring;
  /** Capable scoring: the quality a candidate needed (best − slack). */
  threshold?: number;
  /** Candidates left out: no fitted data, no profile and no declared prior. */
  excluded?: Array<{ id: string; reason: string }>;
}

/** A model's answer obtained so far in a cascade. */
export interface CascadeResponse {
  model: string;
  text: string;
}

export type CascadeStep =
  | { action: 'accept'; model: string; answer: string | null; confidence: number; reasons: string[] }
  | { action: 'call'; model: string; reasons: string[] };
