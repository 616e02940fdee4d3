#!/usr/bin/env node
/**
 * `npm run router:eval -- --train <csv...> --test <csv...> [--json] [--knobs 0,0.1,…,1] [--mode single|cascade]`
 * `npm run router:eval -- --cv <k> <csv...> [--seed n] [--json] …` (k-fold, stratified by task)
 * `npm run router:eval -- --artefact <path> --test <csv...>` (evaluate a fitted artefact)
 * `npm run router:eval -- --ceiling <csv...> [--depth n] [--json]` (what any response-reading
 *   router could reach on these rows, chosen in-sample: see ceiling.ts)
 * The models in the files are the candidates; the router sees only the prompt text.
 */
import { type RouteMode, type RouterArtefact, defaultArtefactPath, loadArtefact } from '@rosetta/mixture';
import { type CeilingReport, routingCeiling } from '../ceiling';
import { loadMtBench } from '../classifier-fit';
import { DEFAULT_CV_SEED, crossValidate } from '../cross-validation';
import { BAR_ACCURACY_SHARE, BAR_COST_SHARE, type EvalReport, evaluate } from '../evaluate';
import { fitRouter } from '../fit-router';
import { loadRouterBench } from '../load-routerbench';
import { type PhrasingReport, evaluatePhrasings, loadPhrasings } from '../phrasings';
import { type SanityReport, catalogCandidates, evaluateSanity, loadSanitySet } from '../sanity';
import { type OptionSpec, type ParsedArgs, flag, flagList, has, out, parseArgs, parseKnobs, run } from './args';

const USAGE = [
  'usage: router:eval -- --train <csv...> --test <csv...> [--json] [--knobs 0,0.1,...,1] [--mode single|cascade] [--mt-bench question.jsonl]',
  '       router:eval -- --cv <k> <csv...> [--seed n] [--json] [--knobs ...] [--mode ...]',
  '       router:eval -- --artefact <path> --test <csv...> [--json] [--knobs ...] [--mode ...]',
  '       router:eval -- --ceiling <csv...> [--depth n] [--json]',
  '       router:eval -- --sanity [--artefact path] [--sanity-file set.jsonl] [--pool builtin|catalog] [--knob k] [--json]',
  '--sanity also routes the phrasing set (sanity/routing-phrasings.jsonl): each task reworded must route as the plain prompt.',
  'Every evaluation also routes the sanity set (the shipped one unless --sanity-file) with the artefact it evaluates',
  '(under --cv, the one fitted on all the rows) and reports the agreement.',
].join('\n');

const pct = (x: number): string => (x * 100).toFixed(2) + '%';
const money = (x: number): string => '$' + x.toFixed(4);
const pad = (s: string, n: number): string => s.padEnd(n);

function printTable(r: EvalReport, title: string): void {
  out(title);
  out(`rows ${r.rows}; mode ${r.mode}; default knob ${r.default_knob}`);
  out();
  out(`${pad('', 34)}${pad('accuracy', 11)}${pad('cost', 12)}models/prompt`);
  out(`${pad(`router (knob ${r.router.knob})`, 34)}${pad(pct(r.router.accuracy), 11)}${pad(money(r.router.cost_usd), 12)}${r.router.models_per_prompt}`);
  out(`${pad(`best single (${r.best_single.model})`, 34)}${pad(pct(r.best_single.accuracy), 11)}${money(r.best_single.cost_usd)}`);
  out(`${pad('random', 34)}${pad(pct(r.random.accuracy), 11)}${money(r.random.cost_usd)}`);
  out(`${pad('oracle', 34)}${pad(pct(r.oracle.accuracy), 11)}${money(r.oracle.cost_usd)}`);
  const v = r.vs_best_single;
  out(
    `router vs best single: ${pct(v.accuracy_ratio)} of its accuracy (${v.accuracy_delta >= 0 ? '+' : ''}${(v.accuracy_delta * 100).toFixed(2)} pts) at ${pct(v.cost_ratio)} of its cost — ` +
      `bar (≥ ${pct(BAR_ACCURACY_SHARE)} of its accuracy at ≤ ${pct(BAR_COST_SHARE)} of its cost) ${v.meets_bar ? 'MET' : 'not met'}`,
  );
  out(`AIQ ${r.aiq} (single models and their mixtures: ${r.aiq_singles}); best accuracy any knob reaches at ${pct(BAR_COST_SHARE)} of its cost: ${pct(r.frontier_at_bar_cost)}`);
  out();
  out(`${pad('task', 16)}${pad('rows', 6)}${pad('router', 20)}${pad('best single', 44)}AIQ`);
  for (const t of r.tasks ?? []) {
    const best = `${t.best_single.model} ${pct(t.best_single.accuracy)} ${money(t.best_single.cost_usd)}`;
    out(`${pad(t.task, 16)}${pad(String(t.rows), 6)}${pad(`${pct(t.router.accuracy)} ${money(t.router.cost_usd)}`, 20)}${pad(best, 44)}${t.aiq}`);
  }
  out();
  out('knob   accuracy   cost        models/prompt');
  for (const p of r.curve) out(`${pad(p.knob.toFixed(3), 7)}${pad(pct(p.accuracy), 11)}${pad(money(p.cost_usd), 12)}${p.models_per_prompt}`);
  out();
  out('single models');
  for (const s of [...r.singles].sort((a, b) => b.accuracy - a.accuracy)) out(`  ${pad(s.model, 40)}${pad(pct(s.accuracy), 11)}${money(s.cost_usd)}`);
}

function printSanity(r: SanityReport, full: boolean): void {
  const pc = (x: { prompts: number; agreement: number }): string => `${pct(x.agreement)} of ${x.prompts}`;
  out(`sanity set: ${pct(r.agreement)} of ${r.prompts} prompts routed to the tier their label asks for (knob ${r.knob ?? 'default'})`);
  out(`  cheap-labelled ${pc(r.by_label.cheap)}, strong-labelled ${pc(r.by_label.strong)}; dev ${pc(r.by_split.dev)}, holdout ${pc(r.by_split.holdout)}; category signal right on ${pct(r.category_accuracy)}`);
  for (const o of full ? r.outcomes : r.disagreements) {
    out(`  ${o.agrees ? 'ok ' : 'NO '} ${o.id} ${pad(o.label, 7)}→ ${pad(o.chosen, 30)}${pad(o.tier, 7)}category ${o.category.signal}${o.category.labelled ? ` (labelled ${o.category.labelled})` : ''}`);
  }
}

function printPhrasings(r: PhrasingReport): void {
  out(`phrasing set: ${pct(r.consistency)} of ${r.variants} rewordings of ${r.groups} tasks routed as the plain prompt (category and model)`);
  for (const o of r.outcomes) {
    out(`  ${o.differing.length === 0 ? 'ok ' : 'NO '} ${o.id} ${pad(o.labelled, 11)}→ ${pad(o.plain.chosen, 30)}category ${o.plain.category}`);
    for (const d of o.differing) out(`       "${d.prompt}" → ${d.chosen}, category ${d.category}`);
  }
}

function phrasingsOf(args: ParsedArgs, artefact: RouterArtefact): PhrasingReport {
  const knobText = flag(args, 'knob');
  return evaluatePhrasings(artefact, loadPhrasings(), catalogCandidates(undefined, poolOf(args)), knobText === undefined ? undefined : Number(knobText));
}

function poolOf(args: ParsedArgs): 'builtin' | 'catalog' {
  const pool = flag(args, 'pool') ?? 'builtin';
  if (pool !== 'builtin' && pool !== 'catalog') throw new Error('--pool: builtin or catalog');
  return pool;
}

function sanityOf(args: ParsedArgs, artefact: RouterArtefact): SanityReport {
  const pool = poolOf(args);
  const knobText = flag(args, 'knob');
  const knob = knobText === undefined ? undefined : Number(knobText);
  if (knob !== undefined && !(knob >= 0 && knob <= 1)) throw new Error(`--knob: expected a number in [0, 1], got ${knobText}`);
  return evaluateSanity(artefact, loadSanitySet(flag(args, 'sanity-file')), catalogCandidates(undefined, pool), knob);
}

function printCeiling(r: CeilingReport, files: string[]): void {
  out(`in-sample ceiling of routers that read up to ${r.depth} answers per prompt, on ${files.join(', ')}`);
  out(`rows ${r.rows}; strongest single model ${r.strongest.model}: ${pct(r.strongest.accuracy)} at ${money(r.strongest.cost_usd)}`);
  out(`at ${pct(r.at_cost_share.cost_share)} of its cost (${money(r.at_cost_share.cost_usd)}): at most ${pct(r.at_cost_share.accuracy)}`);
  const need = r.cost_share_at_strongest_accuracy;
  out(`its accuracy needs at least ${need === null ? 'more than its own cost' : pct(need) + ' of its cost'}`);
  out();
  out('cost          accuracy   (hull of all tasks)');
  for (const p of r.frontier) out(`${pad(money(p.cost_usd), 14)}${pct(p.accuracy)}`);
  for (const t of r.tasks) {
    out();
    out(`${t.task} (${t.rows} rows; ${r.strongest.model} ${pct(t.strongest_accuracy)} at ${money(t.strongest_cost_usd)})`);
    for (const p of t.frontier) out(`  ${pad(money(p.cost_usd), 14)}${pct(p.accuracy)}`);
  }
}

const OPTIONS: Record<string, OptionSpec> = {
  train: { type: 'string', list: true },
  test: { type: 'string', list: true },
  cv: { type: 'string', list: true },
  ceiling: { type: 'string', list: true },
  artefact: { type: 'string' },
  'mt-bench': { type: 'string' },
  knobs: { type: 'string' },
  mode: { type: 'string' },
  seed: { type: 'string' },
  depth: { type: 'string' },
  sanity: { type: 'boolean' },
  'sanity-file': { type: 'string' },
  pool: { type: 'string' },
  knob: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

function main(): void {
  const args = parseArgs(process.argv.slice(2), OPTIONS, USAGE);
  if (has(args, 'help')) return out(USAGE);
  if (has(args, 'ceiling')) {
    const files = [...flagList(args, 'ceiling'), ...args.positional];
    if (files.length === 0) throw new Error('--ceiling needs CSV files\n' + USAGE);
    const depthText = flag(args, 'depth');
    const report = routingCeiling(loadRouterBench(files), { depth: depthText === undefined ? undefined : Number(depthText) });
    return has(args, 'json') ? out(JSON.stringify(report)) : printCeiling(report, files);
  }
  if (has(args, 'sanity')) {
    const artefactPath = flag(args, 'artefact');
    const artefact = artefactPath ? loadArtefact(artefactPath) : loadArtefact(defaultArtefactPath());
    const report = sanityOf(args, artefact);
    const phrasings = phrasingsOf(args, artefact);
    if (has(args, 'json')) return out(JSON.stringify({ ...report, phrasings }));
    printSanity(report, true);
    return printPhrasings(phrasings);
  }
  const knobs = parseKnobs(flag(args, 'knobs'));
  const mode = flag(args, 'mode');
  if (mode !== undefined && mode !== 'single' && mode !== 'cascade') throw new Error('--mode: single or cascade');
  const mtPath = flag(args, 'mt-bench');
  const fit = { mtBench: mtPath ? loadMtBench(mtPath) : undefined };
  let report: EvalReport;
  let title: string;
  let shipped: RouterArtefact;
  if (has(args, 'cv')) {
    const [kText, ...cvFiles] = flagList(args, 'cv');
    const k = Number(kText);
    const files = [...cvFiles, ...args.positional];
    if (!Number.isInteger(k) || k < 2 || files.length === 0) throw new Error('--cv needs an integer k ≥ 2 and CSV files\n' + USAGE);
    const seed = Number(flag(args, 'seed') ?? DEFAULT_CV_SEED);
    const rows = loadRouterBench(files);
    report = crossValidate(rows, { k, seed, knobs, mode: mode as RouteMode | undefined, fit });
    shipped = fitRouter(rows, { ...fit, files });
    title = `${k}-fold cross-validation (stratified by task, seed ${seed}) on ${files.join(', ')}`;
  } else {
    const test = flagList(args, 'test');
    const train = flagList(args, 'train');
    const artefactPath = flag(args, 'artefact');
    if (test.length === 0 || (train.length === 0 && !artefactPath)) throw new Error('need --test and --train (or --artefact)\n' + USAGE);
    const artefact = artefactPath ? loadArtefact(artefactPath) : fitRouter(loadRouterBench(train), { ...fit, files: train });
    report = evaluate(artefact, loadRouterBench(test), { knobs, mode: mode as RouteMode | undefined });
    shipped = artefact;
    title = `trained on ${artefactPath ?? train.join(', ')}; tested on ${test.join(', ')}`;
  }
  const sanity = sanityOf(args, shipped);
  if (has(args, 'json')) out(JSON.stringify({ ...report, sanity: { ...sanity, outcomes: undefined } }));
  else {
    printTable(report, title);
    out();
    printSanity(sanity, false);
  }
}

run(main);
