/** Minimal argv parsing for the router CLIs (no dependency): `--flag v1 v2 …` and positionals. */
export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string[]>;
}

const BOOLEAN_FLAGS = new Set(['json', 'help']);

export function parseArgs(argv: string[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const arg of argv) {
    if (arg === '--') continue;
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      const values = flags.get(name) ?? [];
      flags.set(name, values);
      if (inline !== undefined) values.push(inline);
      current = BOOLEAN_FLAGS.has(name) || inline !== undefined ? null : values;
      continue;
    }
    if (current) current.push(arg);
    else positional.push(arg);
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
