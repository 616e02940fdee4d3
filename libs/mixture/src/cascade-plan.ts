/**
 * The fitted cascade policy as the artefact carries it. The live step reads these plans; the
 * search that chooses them lives in @rosetta/mixture-lab (cascade-fit.ts), so the gateway does
 * not load it.
 */
import type { DepthTable } from './cascade-core';

export interface CascadePlan {
  key: string;
  cluster: number;
  /** Activation order; with `cascade` the last model is the escalation. */
  models: string[];
  cascade: boolean;
  /** Cluster accuracy of each model in `models`. */
  priors: number[];
  tables: DepthTable[];
}

export interface CascadePolicy {
  alpha: number;
  lambdas: number[];
  plans: CascadePlan[];
  /** choice[cluster][lambda index] → index into `plans`. */
  choice: number[][];
}
