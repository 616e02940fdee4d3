/**
 * The phrasing set (`libs/mixture-lab/sanity/routing-phrasings.jsonl`): one task per line worded
 * several ways — "step by step", "explain your reasoning", "please", "can you …", a generic
 * assistant persona, trailing thanks, other casing and punctuation. Wording that does not change
 * the task must not change the route: every variant gets the category and the model of its plain
 * prompt ("Prove that the square root of 2 is irrational, step by step." read as roleplay once).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Candidate, type RouterArtefact, decide } from '@rosetta/mixture';

export interface PhrasingGroup {
  id: string;
  /** The category a person gives the task. */
  category: string;
  prompt: string;
  variants: string[];
}

export function defaultPhrasingsPath(): string {
  return join(__dirname, '..', 'sanity', 'routing-phrasings.jsonl');
}

export function loadPhrasings(path: string = defaultPhrasingsPath()): PhrasingGroup[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line, i) => [line.trim(), i + 1] as const)
    .filter(([line]) => line !== '')
    .map(([line, n]) => {
      const r = JSON.parse(line) as Record<string, unknown>;
      const variants = r['variants'];
      if (typeof r['id'] !== 'string' || typeof r['category'] !== 'string' || typeof r['prompt'] !== 'string') {
        throw new Error(`phrasing set line ${n}: 'id', 'category' and 'prompt' must be strings`);
      }
      if (!Array.isArray(variants) || variants.length === 0 || !variants.every((v) => typeof v === 'string')) {
        throw new Error(`phrasing set line ${n}: 'variants' must be a non-empty list of strings`);
      }
      return { id: r['id'], category: r['category'], prompt: r['prompt'], variants: variants as string[] };
    });
}

/** The route of one wording: the category signal and the model called first. */
export interface PhrasingRoute {
  prompt: string;
  category: string;
  chosen: string;
}

export interface PhrasingOutcome {
  id: string;
  labelled: string;
  plain: PhrasingRoute;
  /** The variants routed otherwise than the plain prompt (category or model). */
  differing: PhrasingRoute[];
}

export interface PhrasingReport {
  groups: number;
  variants: number;
  /** Share of variants routed as their plain prompt (category and model). */
  consistency: number;
  outcomes: PhrasingOutcome[];
}

/** Routes every wording as the gateway would (knob: the artefact's default unless given). */
export function evaluatePhrasings(artefact: RouterArtefact, groups: PhrasingGroup[], candidates: Candidate[], knob?: number): PhrasingReport {
  const route = (prompt: string): PhrasingRoute => {
    const d = decide({ text: prompt, candidates, knob }, artefact);
    return { prompt, category: String(d.signals.find((s) => s.name === 'category')?.value), chosen: d.chosen };
  };
  const outcomes = groups.map((g): PhrasingOutcome => {
    const plain = route(g.prompt);
    const differing = g.variants.map(route).filter((r) => r.category !== plain.category || r.chosen !== plain.chosen);
    return { id: g.id, labelled: g.category, plain, differing };
  });
  const variants = groups.reduce((n, g) => n + g.variants.length, 0);
  const differing = outcomes.reduce((n, o) => n + o.differing.length, 0);
  return { groups: groups.length, variants, consistency: Math.round((1 - differing / Math.max(1, variants)) * 1e4) / 1e4, outcomes };
}
