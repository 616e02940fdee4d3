/**
 * The fitted router as one versioned JSON document: classifier, quality model (hashed TF-IDF
 * kNN index + cluster priors), cost model, λ calibration of both modes and the cascade policy.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CascadePolicy } from './cascade-fit';
import type { ClassifierParams } from './category-classifier';
import type { CostParams } from './cost-model';
import type { QualityParams } from './quality-model';
import type { RouteMode } from './types';

export const ARTEFACT_FORMAT = 'rosetta-mixture-artefact';
export const ARTEFACT_VERSION = 1;

export interface KnobCurve {
  lambdas: number[];
  /** Knob value of each λ (see calibration.ts). */
  knobs: number[];
  /** Training (leave-one-out) accuracy and total cost at each λ, for the record. */
  accuracy: number[];
  costUsd: number[];
}

export interface RouterArtefact {
  format: typeof ARTEFACT_FORMAT;
  version: typeof ARTEFACT_VERSION;
  trainedOn: { rows: number; tasks: Record<string, number>; files: string[]; mtBenchQuestions: number };
  models: string[];
  /** `knob` is `knobByMode[mode]`; each mode's knob is calibrated on its own curve. */
  defaults: { knob: number; mode: RouteMode; costShare: number | null; knobByMode: Record<RouteMode, number> };
  classifier: ClassifierParams;
  quality: QualityParams;
  cost: CostParams;
  single: KnobCurve;
  cascade: { policy: CascadePolicy; curve: KnobCurve };
}

export function isArtefact(x: unknown): x is RouterArtefact {
  const a = x as Partial<RouterArtefact> | null;
  return typeof a === 'object' && a !== null && a.format === ARTEFACT_FORMAT && a.version === ARTEFACT_VERSION && Array.isArray(a.models);
}

export function loadArtefact(path: string): RouterArtefact {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!isArtefact(parsed)) throw new Error(`${path}: not a ${ARTEFACT_FORMAT} v${ARTEFACT_VERSION} document`);
  return parsed;
}

export function saveArtefact(path: string, artefact: RouterArtefact): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(artefact) + '\n');
}

/**
 * `libs/mixture/artefacts/default.json`, found from the sources (ts-jest), from `dist/` and from
 * the repository root.
 */
export function defaultArtefactPath(): string {
  const candidates = [
    join(__dirname, '..', 'artefacts', 'default.json'),
    join(__dirname, '..', '..', '..', '..', 'libs', 'mixture', 'artefacts', 'default.json'),
    join(process.cwd(), 'libs', 'mixture', 'artefacts', 'default.json'),
  ];
  return candidates.find((p) => existsSync(p)) ?? (candidates[0] as string);
}

export { fitRouter, type FitOptions } from './fit-router';
