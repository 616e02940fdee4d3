#!/usr/bin/env node
/**
 * `npm run router:fit -- <csv...> [--out path] [--mt-bench question.jsonl] [--mode m] [--cost-share s | --knob k]`
 * Fits the router on RouterBench-shaped CSV files and writes the artefact
 * (default `.rosetta/router-artefact.json`).
 */
import { basename } from 'node:path';
import { type RouteMode, saveArtefact } from '@rosetta/mixture';
import { loadMtBench } from '../classifier-fit';
import { fitRouter } from '../fit-router';
import { loadRouterBench } from '../load-routerbench';
import { type OptionSpec, err, flag, flagList, has, out, parseArgs, run } from './args';

const USAGE =
  'usage: router:fit -- <csv...> [--out .rosetta/router-artefact.json] [--mt-bench question.jsonl] [--mode cascade|single] [--cost-share 0.38 | --knob k]';

const OPTIONS: Record<string, OptionSpec> = {
  csv: { type: 'string', list: true },
  out: { type: 'string' },
  'mt-bench': { type: 'string' },
  mode: { type: 'string' },
  knob: { type: 'string' },
  'cost-share': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

function main(): void {
  const args = parseArgs(process.argv.slice(2), OPTIONS, USAGE);
  const files = [...args.positional, ...flagList(args, 'csv')];
  if (has(args, 'help') || files.length === 0) {
    out(USAGE);
    if (files.length === 0 && !has(args, 'help')) process.exitCode = 2;
    return;
  }
  const outPath = flag(args, 'out') ?? '.rosetta/router-artefact.json';
  const mtPath = flag(args, 'mt-bench');
  const mode = flag(args, 'mode');
  if (mode !== undefined && mode !== 'single' && mode !== 'cascade') throw new Error('--mode: single or cascade');
  const knob = flag(args, 'knob');
  const share = flag(args, 'cost-share');
  const started = Date.now();
  const rows = loadRouterBench(files);
  const mtBench = mtPath ? loadMtBench(mtPath) : undefined;
  if (!mtBench) err('note: no --mt-bench file: the category classifier uses its keyword priors only');
  const artefact = fitRouter(rows, {
    files: files.map((f) => basename(f)),
    mtBench,
    defaultMode: mode as RouteMode | undefined,
    defaultKnob: knob === undefined ? undefined : Number(knob),
    costShare: share === undefined ? undefined : Number(share),
  });
  saveArtefact(outPath, artefact);
  out(`fitted on ${rows.length} rows (${Object.entries(artefact.trainedOn.tasks).map(([t, n]) => `${t} ${n}`).join(', ')}), ${artefact.models.length} models`);
  out(`default: mode ${artefact.defaults.mode}, knob ${artefact.defaults.knob}; wrote ${outPath} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

run(main);
