#!/usr/bin/env node
/**
 * `npm run router:bench -- [--artefact path] [--iterations n]`: decision latency of `decide`
 * (signals + quality model + scoring + cascade plan) on synthetic prompts from 10 to 8k tokens,
 * for the artefact's fitted models and for the shipped catalog's models (what the gateway decides
 * among). A benchmark, not a test: prints p50/p99 per prompt size.
 */
import { performance } from 'node:perf_hooks';
import { type Candidate, type RouterArtefact, decide, defaultArtefactPath, loadArtefact } from '@rosetta/mixture';
import { catalogCandidates } from '../sanity';
import { mulberry32 } from '../rng';
import { type OptionSpec, flag, has, out, parseArgs, run } from './args';

const VOCAB = 'the a of to and in is it that for on with as was at by an be this which or from but not are have what how why explain write function return value list number answer option because when where science energy plant water model data'.split(' ');

/** Roughly `tokens` tokens of English-like text (about 4 characters per token). */
function prompt(tokens: number, seed: number): string {
  const rand = mulberry32(seed);
  const words: string[] = [];
  let chars = 0;
  while (chars < tokens * 4) {
    const w = VOCAB[Math.floor(rand() * VOCAB.length)] as string;
    words.push(w);
    chars += w.length + 1;
  }
  return words.join(' ') + '\nA) first\nB) second\nC) third\nD) fourth\nAnswer:';
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;

const USAGE = 'usage: router:bench -- [--artefact path] [--iterations 2000]';

const OPTIONS: Record<string, OptionSpec> = {
  artefact: { type: 'string' },
  iterations: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

function main(): void {
  const args = parseArgs(process.argv.slice(2), OPTIONS, USAGE);
  if (has(args, 'help')) return out(USAGE);
  const artefact = loadArtefact(flag(args, 'artefact') ?? defaultArtefactPath());
  const iterations = Number(flag(args, 'iterations') ?? 2000);
  if (!Number.isInteger(iterations) || iterations < 1) throw new Error(`--iterations: a positive integer\n${USAGE}`);
  const fitted = artefact.models.map((id) => ({ id }));
  const catalog = catalogCandidates(undefined, 'catalog');
  // Warm-up: builds the runtime index and lets the JIT compile the hot paths before measuring.
  for (let i = 0; i < 1000; i++) decide({ text: prompt([10, 100, 500, 2000, 8000][i % 5] as number, 7 + i), candidates: i % 2 ? fitted : catalog }, artefact);
  table(`fitted models (${fitted.length}, mode ${artefact.defaults.mode})`, fitted, artefact, iterations);
  out();
  table(`catalog models (${catalog.length}, profiles: the cheapest capable one)`, catalog, artefact, iterations);
}

function table(title: string, candidates: Candidate[], artefact: RouterArtefact, iterations: number): void {
  out(`decide() latency over ${iterations} distinct prompts per size, ${title}`);
  out('tokens   p50 ms   p99 ms   max ms');
  for (const size of [10, 100, 500, 2000, 8000]) {
    const texts = Array.from({ length: Math.min(iterations, 200) }, (_, i) => prompt(size, size * 1000 + i));
    const times: number[] = [];
    for (let i = 0; i < iterations; i++) {
      // A new string each time so no per-prompt cache can help.
      const text = (texts[i % texts.length] as string) + ' ' + i;
      const t0 = performance.now();
      decide({ text, candidates }, artefact);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    out(`${String(size).padEnd(9)}${percentile(times, 0.5).toFixed(3).padEnd(9)}${percentile(times, 0.99).toFixed(3).padEnd(9)}${(times[times.length - 1] as number).toFixed(3)}`);
  }
}

run(main);
