/** Shared types of the Mixture-of-Models router (`rosetta/auto`). */

/** One cheap, deterministic observation about a prompt or request. */
export interface Signal {
  name: string;
  /** Numeric or categorical value (`true`/`false` for flags). */
  value: number | string | boolean;
  /** 0..1: how much the extractor trusts its own value. */
  confidence: number;
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
}

export interface ScoredCandidate {
  id: string;
  /** Predicted P(correct) for this prompt. */
  quality: number;
  /** Expected USD cost of one call for this prompt. */
  costUsd: number;
  /** quality − λ(knob)·costUsd. */
  score: number;
}

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
}

/** A model's answer obtained so far in a cascade. */
export interface CascadeResponse {
  model: string;
  text: string;
}

export type CascadeStep =
  | { action: 'accept'; model: string; answer: string | null; confidence: number; reasons: string[] }
  | { action: 'call'; model: string; reasons: string[] };
