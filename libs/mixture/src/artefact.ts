/**
 * The fitted router as one versioned JSON document: classifier, quality model (hashed TF-IDF
 * kNN index + cluster priors), cost model, λ calibration of both modes and the cascade policy.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CascadePolicy } from './cascade-plan';
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
 * The shipped router, beside the code: `libs/mixture/artefacts/default.json` from the sources
 * (ts-jest), `dist/libs/mixture/artefacts/default.json` once built (`npm run build` copies it).
 */
export function defaultArtefactPath(): string {
  return join(__dirname, '..', 'artefacts', 'default.json');
}

/**
 * The artefact the gateway routes with: the operator's (`ROUTER_ARTEFACT`) when configured, else
 * the shipped one. A failure names whichever it was, so an incomplete build is not blamed on a
 * variable nobody set.
 */
export function loadRouterArtefact(configured: string | undefined, shipped = defaultArtefactPath()): { path: string; artefact: RouterArtefact } {
  const path = configured ?? shipped;
  try {
    return { path, artefact: loadArtefact(path) };
  } catch (error) {
    const reason = (error as Error).message;
    if (configured !== undefined) throw new Error(`ROUTER_ARTEFACT: cannot load '${path}': ${reason}`);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        `the shipped router artefact is missing: '${path}' is not in the build output ` +
          '(`npm run build` copies libs/mixture/artefacts into dist/, and a runtime image needs all of dist/; ROUTER_ARTEFACT is not set)',
      );
    }
    throw new Error(`the shipped router artefact '${path}' cannot be loaded (ROUTER_ARTEFACT is not set): ${reason}`);
  }
}
