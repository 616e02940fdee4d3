import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative, sep } from 'node:path';
import { dockerIgnore, parseDockerfile, type CopyInstruction, type DockerStage } from './dockerfile';

/**
 * The files of the image the Dockerfile describes, without Docker: each stage is a directory
 * standing for its `/`, the build stage is replayed (its COPY lines from the build context, its
 * RUN lines by what they mean, see `runStep`), and the runtime stage gets exactly its COPY lines.
 * No path in the final tree leads back into the repository (no symlinks; package files may be
 * hard links to the repository's own, which nothing writes to).
 */
export interface RuntimeTree {
  /** The runtime stage as parsed (CMD, ENV, HEALTHCHECK, USER …). */
  stage: DockerStage;
  /** Where the runtime stage's WORKDIR is on this machine. */
  workdir: string;
  remove(): void;
}

interface Stage {
  stage: DockerStage;
  root: string;
}

const inStage = (stage: Stage, path: string, workdir: string): string =>
  join(stage.root, posix.isAbsolute(path) ? path : posix.join(workdir, path));

/**
 * `from` recreated at `to`, files hard-linked when both are on one file system (copying the
 * 150 MB of production packages file by file takes 10 s or more; linking, well under one) and
 * copied otherwise. Only for trees nothing writes to: node_modules and what one stage hands the next.
 */
function mirror(from: string, to: string, keep: (path: string) => boolean = () => true): void {
  const stat = lstatSync(from);
  if (stat.isSymbolicLink()) return symlinkSync(readlinkSync(from), to);
  if (stat.isDirectory()) {
    mkdirSync(to, { recursive: true });
    for (const name of readdirSync(from)) if (keep(join(from, name))) mirror(join(from, name), join(to, name), keep);
    return;
  }
  if (lstatOrUndefined(to)) unlinkSync(to);
  try {
    linkSync(from, to);
  } catch (error) {
    if (!['EXDEV', 'EPERM', 'EMLINK'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    copyFileSync(from, to);
  }
}

/**
 * The production packages exactly as `npm prune --omit=dev` would leave them: npm's own list of
 * the non-dev tree, each package taken without its nested `node_modules` (nested packages are
 * on the list themselves when they are production ones).
 */
function copyProductionModules(repo: string, target: string): void {
  // Exit status ignored: npm ls also fails for an extraneous package, which prune would drop anyway.
  const listing = spawnSync('npm', ['ls', '--omit=dev', '--parseable', '--all'], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).stdout ?? '';
  const modules = join(repo, 'node_modules');
  const packages = listing.split('\n').filter((line) => line.startsWith(modules + sep));
  if (packages.length === 0) throw new Error('npm ls --omit=dev listed no production packages');
  for (const pkg of packages) mirror(pkg, join(target, relative(modules, pkg)), (path) => !relative(pkg, path).split(sep).includes('node_modules'));
}

function replaceNodeModules(dir: string, fill: (target: string) => void): void {
  const target = join(dir, 'node_modules');
  const existing = lstatOrUndefined(target);
  // A symlink into the repository is unlinked, never emptied.
  if (existing?.isSymbolicLink()) unlinkSync(target);
  else if (existing) rmSync(target, { recursive: true, force: true });
  fill(target);
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function npmRun(script: string, cwd: string): void {
  try {
    execFileSync('npm', ['run', '--silent', script], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run ${script} failed in the image's build stage:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/**
 * A RUN line by what it means here. `npm ci` links the repository's own installation (made from
 * the same lockfile); `npm prune --omit=dev` / `npm ci --omit=dev` leave the production tree;
 * `npm run <script>` runs the script; `mkdir -p`, `touch` act on the stage; `chown` is moot (the
 * files are readable by any user). Anything else fails, so a new RUN step gets a meaning here.
 */
function runStep(repo: string, stage: Stage, command: string, workdir: string): void {
  const cwd = inStage(stage, '.', workdir);
  for (const segment of command.split('&&').map((s) => s.trim())) {
    const words = segment.split(/\s+/);
    const paths = () => words.slice(1).filter((w) => !w.startsWith('-')).map((p) => inStage(stage, p, workdir));
    if (/^npm (ci|install)\b/.test(segment) && words.includes('--omit=dev')) replaceNodeModules(cwd, (t) => copyProductionModules(repo, t));
    else if (/^npm ci\b/.test(segment)) replaceNodeModules(cwd, (t) => symlinkSync(join(repo, 'node_modules'), t, 'dir'));
    else if (/^npm prune --omit=dev$/.test(segment)) replaceNodeModules(cwd, (t) => copyProductionModules(repo, t));
    else if (/^npm run \S+$/.test(segment)) npmRun(words[2]!, cwd);
    else if (words[0] === 'mkdir') paths().forEach((p) => mkdirSync(p, { recursive: true }));
    else if (words[0] === 'touch') paths().forEach((p) => (existsSync(p) ? utimesSync(p, new Date(), new Date()) : writeFileSync(p, '')));
    else if (words[0] === 'chown') continue;
    else throw new Error(`runtime-layout: no meaning for the Dockerfile step '${segment}'; teach test/support/runtime-tree.ts`);
  }
}

function copyStep(repo: string, stages: Map<string, Stage>, stage: Stage, copy: CopyInstruction, workdir: string): void {
  const ignored = dockerIgnore(existsSync(join(repo, '.dockerignore')) ? readFileSync(join(repo, '.dockerignore'), 'utf8') : '');
  const fromStage = copy.from === undefined ? undefined : stages.get(copy.from);
  if (copy.from !== undefined && !fromStage) throw new Error(`COPY --from=${copy.from}: no such stage`);
  const destination = inStage(stage, copy.dest, workdir);
  const intoDirectory = copy.dest.endsWith('/') || copy.sources.length > 1;
  for (const source of copy.sources) {
    if (/[*?[]/.test(source)) throw new Error(`COPY ${source}: wildcards are not understood by the runtime-layout test`);
    const from = fromStage ? join(fromStage.root, source) : join(repo, source);
    const to = intoDirectory && !lstatSync(from).isDirectory() ? join(destination, posix.basename(source)) : destination;
    mkdirSync(dirname(to), { recursive: true });
    // From another stage (dist/, node_modules: nothing writes to them) by links; from the build
    // context (the repository itself) by real copies, so no later step can write through to it.
    if (fromStage) mirror(from, to);
    else cpSync(from, to, { recursive: true, verbatimSymlinks: true, filter: (path) => path === from || !ignored(relative(repo, path).split(sep).join('/')) });
  }
}

/** Unlinks every stage's node_modules first when it is the link to the repository's. */
function removeTree(base: string, stages: Map<string, Stage>): void {
  for (const { stage, root } of stages.values()) {
    const modules = join(root, stage.workdir, 'node_modules');
    if (lstatOrUndefined(modules)?.isSymbolicLink()) unlinkSync(modules);
  }
  rmSync(base, { recursive: true, force: true });
}

export function assembleRuntimeTree(repo: string): RuntimeTree {
  const stages = parseDockerfile(readFileSync(join(repo, 'Dockerfile'), 'utf8'));
  const base = mkdtempSync(join(tmpdir(), 'rosetta-image-'));
  const byName = new Map<string, Stage>();
  try {
    stages.forEach((stage, index) => {
      const built: Stage = { stage, root: join(base, `stage-${index}`) };
      mkdirSync(join(built.root, stage.workdir), { recursive: true });
      byName.set(String(index), built);
      for (const step of stage.steps) {
        if (step.kind === 'COPY') copyStep(repo, byName, built, step.copy, step.workdir);
        else runStep(repo, built, step.command, step.workdir);
      }
      if (stage.name) byName.set(stage.name, built);
    });
  } catch (error) {
    removeTree(base, byName);
    throw error;
  }
  const runtime = stages[stages.length - 1]!;
  return {
    stage: runtime,
    workdir: join(base, `stage-${stages.length - 1}`, runtime.workdir),
    remove: () => removeTree(base, byName),
  };
}
