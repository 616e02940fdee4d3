/**
 * Argument parsing for the router CLIs, on node:util's `parseArgs` (strict: an unknown or
 * value-less option is an error that ends with the CLI's usage).
 *
 * One addition: an option declared `list` also takes the plain arguments that follow it, as in
 * `--train a.csv b.csv --test c.csv` or `--cv 5 a.csv b.csv`, the form the usage lines and READMEs
 * have always given; `parseArgs` alone would make `b.csv` a positional. `--train=a.csv` takes
 * just that one value.
 */
import { parseArgs as parseNodeArgs } from 'node:util';

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** Plain arguments after the option's value are more values (until the next option). */
  list?: boolean;
  short?: string;
}

export interface ParsedArgs {
  positional: string[];
  /** Every value given to each option present, in order (none for a boolean). */
  flags: Map<string, string[]>;
}

function firstSentence(error: unknown): string {
  // Not `instanceof Error`: node's errors may come from another realm (as under jest).
  const message = String((error as { message?: unknown } | null)?.message ?? error);
  return message.split('. ')[0] ?? message;
}

export function parseArgs(argv: string[], options: Record<string, OptionSpec>, usage: string): ParsedArgs {
  const config = Object.fromEntries(Object.entries(options).map(([name, o]) => [name, o.short === undefined ? { type: o.type } : { type: o.type, short: o.short }]));
  let tokens;
  try {
    tokens = parseNodeArgs({ args: argv, options: config, allowPositionals: true, strict: true, tokens: true }).tokens;
  } catch (error) {
    throw new Error(`${firstSentence(error)}\n${usage}`);
  }
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  let open: string[] | null = null;
  for (const token of tokens) {
    if (token.kind === 'option') {
      const values = flags.get(token.name) ?? [];
      flags.set(token.name, values);
      if (token.value !== undefined) values.push(token.value);
      open = options[token.name]?.list && !token.inlineValue ? values : null;
    } else if (token.kind === 'positional') {
      (open ?? positional).push(token.value);
    } else {
      open = null;
    }
  }
  return { positional, flags };
}

export function flag(args: ParsedArgs, name: string): string | undefined {
  return args.flags.get(name)?.[0];
}

export function flagList(args: ParsedArgs, name: string): string[] {
  return args.flags.get(name) ?? [];
}

export function has(args: ParsedArgs, name: string): boolean {
  return args.flags.has(name);
}

export function parseKnobs(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  const knobs = text.split(',').map((s) => Number(s.trim()));
  if (knobs.some((k) => !Number.isFinite(k) || k < 0 || k > 1)) throw new Error(`--knobs: expected numbers in [0, 1], got ${text}`);
  return knobs;
}

export function out(line = ''): void {
  process.stdout.write(line + '\n');
}

export function err(line: string): void {
  process.stderr.write(line + '\n');
}

/** Runs a CLI main, printing errors without a stack and exiting 1. */
export function run(main: () => void): void {
  // `… | head` closes the pipe early: stop quietly instead of crashing on EPIPE.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
  try {
    main();
  } catch (e) {
    err(`error: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  }
}
