/** Per-artefact runtime state (decoded index, lookups), built once and cached. */
import type { RouterArtefact } from './artefact';
import type { CascadePlan } from './cascade-plan';
import { type QualityPrediction, QualityModel } from './quality-model';
import { countPromptTokens } from './tokens';

/** What the router works out about a prompt once (decide and every cascade step share it). */
export interface PromptView {
  text: string;
  tokens: number;
  prediction: QualityPrediction;
}

export interface Runtime {
  artefact: RouterArtefact;
  quality: QualityModel;
  modelIndex: Map<string, number>;
  /** `${cluster}:${plan models joined by '>'}` → plan. */
  plans: Map<string, CascadePlan>;
  /** The last few prompts seen (a cascade revisits its prompt at every step). */
  recent: PromptView[];
}

const runtimes = new WeakMap<RouterArtefact, Runtime>();
const RECENT = 4;

export function runtimeOf(artefact: RouterArtefact): Runtime {
  let rt = runtimes.get(artefact);
  if (!rt) {
    rt = {
      artefact,
      quality: new QualityModel(artefact.quality),
      modelIndex: new Map(artefact.models.map((m, i) => [m, i])),
      plans: new Map(artefact.cascade.policy.plans.map((p) => [`${p.cluster}:${p.key}`, p])),
      recent: [],
    };
    runtimes.set(artefact, rt);
  }
  return rt;
}

export function viewOf(rt: Runtime, text: string): PromptView {
  const hit = rt.recent.find((v) => v.text === text);
  if (hit) return hit;
  const view = { text, tokens: countPromptTokens(text).tokens, prediction: rt.quality.predict(text) };
  rt.recent.unshift(view);
  if (rt.recent.length > RECENT) rt.recent.pop();
  return view;
}
