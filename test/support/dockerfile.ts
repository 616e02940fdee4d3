/**
 * Just enough of a Dockerfile reader for the runtime-layout test: stages, and in each the
 * WORKDIR, ENV, RUN, COPY, USER, CMD and HEALTHCHECK instructions, so the test follows the file
 * instead of a copy of it.
 */

export interface CopyInstruction {
  /** `--from=<stage>`, absent when copying from the build context. */
  from?: string;
  sources: string[];
  dest: string;
}

/** A step that changes the stage's files, with the working directory it runs in. */
export type FileStep = { workdir: string } & ({ kind: 'COPY'; copy: CopyInstruction } | { kind: 'RUN'; command: string });

export interface DockerStage {
  name?: string;
  image: string;
  /** The stage's working directory after its last WORKDIR (absolute). */
  workdir: string;
  env: Record<string, string>;
  /** COPY and RUN in file order. */
  steps: FileStep[];
  user?: string;
  /** Exec form only (`CMD ["node", …]`); the shell form is not used here. */
  cmd?: string[];
  /** The HEALTHCHECK's `CMD` in exec form, if the stage declares one. */
  healthcheck?: string[];
}

/** Instruction lines with continuations joined and comments dropped. */
function instructions(text: string): Array<{ keyword: string; rest: string }> {
  const joined = text.replace(/\\\r?\n/g, ' ');
  return joined
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^(\S+)\s*(.*)$/.exec(line)!;
      return { keyword: match[1]!.toUpperCase(), rest: match[2]! };
    });
}

/** Leading `--name=value` flags, then the remaining words. */
function flagsAndWords(rest: string): { flags: Record<string, string>; words: string[] } {
  const flags: Record<string, string> = {};
  const words = rest.split(/\s+/).filter(Boolean);
  while (words[0]?.startsWith('--')) {
    const [name, value = 'true'] = words.shift()!.slice(2).split('=', 2);
    flags[name!] = value;
  }
  return { flags, words };
}

function execForm(rest: string, what: string): string[] {
  const parsed: unknown = JSON.parse(rest);
  if (!Array.isArray(parsed) || !parsed.every((p) => typeof p === 'string')) throw new Error(`${what}: expected the exec form ["…", …], got ${rest}`);
  return parsed;
}

function parseEnv(rest: string): Record<string, string> {
  const env: Record<string, string> = {};
  if (!rest.includes('=')) {
    const [name, ...value] = rest.split(/\s+/);
    env[name!] = value.join(' ');
    return env;
  }
  for (const match of rest.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("([^"]*)"|'([^']*)'|\S*)/g)) {
    env[match[1]!] = match[3] ?? match[4] ?? match[2]!;
  }
  return env;
}

function parseCopy(rest: string): CopyInstruction {
  const { flags, words } = flagsAndWords(rest);
  const paths = words[0]?.startsWith('[') ? execForm(words.join(' '), 'COPY') : words;
  if (paths.length < 2) throw new Error(`COPY needs a source and a destination: ${rest}`);
  return { from: flags['from'], sources: paths.slice(0, -1), dest: paths[paths.length - 1]! };
}

export function parseDockerfile(text: string): DockerStage[] {
  const stages: DockerStage[] = [];
  for (const { keyword, rest } of instructions(text)) {
    if (keyword === 'FROM') {
      const { words } = flagsAndWords(rest);
      const as = words.findIndex((w) => w.toUpperCase() === 'AS');
      stages.push({ image: words[0]!, name: as >= 0 ? words[as + 1] : undefined, workdir: '/', env: {}, steps: [] });
      continue;
    }
    const stage = stages[stages.length - 1];
    if (!stage) throw new Error(`${keyword} before the first FROM`);
    if (keyword === 'WORKDIR') stage.workdir = rest.startsWith('/') ? rest : `${stage.workdir.replace(/\/$/, '')}/${rest}`;
    else if (keyword === 'ENV') Object.assign(stage.env, parseEnv(rest));
    else if (keyword === 'RUN') stage.steps.push({ kind: 'RUN', command: rest, workdir: stage.workdir });
    else if (keyword === 'COPY') stage.steps.push({ kind: 'COPY', copy: parseCopy(rest), workdir: stage.workdir });
    else if (keyword === 'USER') stage.user = rest;
    else if (keyword === 'CMD') stage.cmd = execForm(rest, 'CMD');
    else if (keyword === 'HEALTHCHECK' && rest.trim().toUpperCase() !== 'NONE') {
      const cmd = /\bCMD\s+(.*)$/.exec(rest);
      if (!cmd) throw new Error(`HEALTHCHECK without CMD: ${rest}`);
      stage.healthcheck = execForm(cmd[1]!, 'HEALTHCHECK CMD');
    }
    else if (keyword === 'ADD') throw new Error('ADD is not understood by the runtime-layout test; use COPY');
  }
  return stages;
}

/** `.dockerignore` as a predicate over context-relative paths (`*`, `**`, `?` and `!` exceptions). */
export function dockerIgnore(text: string): (path: string) => boolean {
  const rules = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const negate = line.startsWith('!');
      const pattern = (negate ? line.slice(1) : line).replace(/^\/+|\/+$/g, '');
      const source = pattern
        .split(/(\*\*\/?|\*|\?)/)
        .map((part) => (part.startsWith('**') ? '.*' : part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
        .join('');
      return { negate, regex: new RegExp(`^${source}(/.*)?$`) };
    });
  return (path) => rules.reduce((ignored, rule) => (rule.regex.test(path) ? !rule.negate : ignored), false);
}
