/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// Another commit of Rosetta (BENCH_BASELINE, BENCH_REF) checked out and built in a temporary git
// worktree, and removed again.
const os = require('node:os');
const { join } = require('node:path');
const { execFileSync } = require('node:child_process');
const { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync } = require('node:fs');
const { startChild } = require('./proc');
const { ROOT, baseEnv } = require('./env');

function git(args, options = {}) {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options }).trim();
}

/**
 * `ref` checked out in a temporary git worktree (detached; the main work tree is not touched),
 * sharing this checkout's node_modules through a symlink — or, when its package-lock.json differs
 * (a dependency was added or removed since), with its own `npm ci` — and built with its own
 * `npm run build`.
 * `onStart(dir)` is called as soon as the worktree exists, so a failure or Ctrl-C from then on
 * removes it (`removeBaseline`). Resolves {ref, commit, subject, dir, parent, buildSeconds}.
 */
async function prepareBaseline(ref, { onStart, log = () => {} } = {}) {
  const commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (!commit) throw new Error(`BENCH_BASELINE: '${ref}' is not a commit`);
  const subject = git(['log', '-1', '--format=%s', commit]);
  const parent = mkdtempSync(join(os.tmpdir(), 'rosetta-bench-baseline-'));
  const dir = join(parent, 'rosetta');
  const baseline = { ref, commit, short: commit.slice(0, 7), subject, dir, parent, buildSeconds: null };
  if (onStart) onStart(baseline);
  git(['worktree', 'add', '--detach', dir, commit]);
  const started = Date.now();
  if (readFileSync(join(dir, 'package-lock.json'), 'utf8') === readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) {
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  } else {
    log(`baseline ${baseline.short} has other dependencies than this checkout: npm ci in ${dir}`);
    const install = startChild('baseline npm ci', 'npm', ['ci', '--silent', '--no-audit', '--no-fund'], { env: baseEnv(), cwd: dir, group: true });
    const installed = await install.exitPromise;
    if (installed !== 0) throw new Error(`npm ci of ${ref} failed (exit ${installed})\n${install.tail(30)}`);
  }
  log(`baseline ${baseline.short} (${subject}) checked out in ${dir}; building`);
  const build = startChild('baseline build', 'npm', ['run', '--silent', 'build'], { env: { ...baseEnv(), NODE_ENV: 'production' }, cwd: dir, group: true });
  const code = await build.exitPromise;
  if (code !== 0) throw new Error(`npm run build of ${ref} failed (exit ${code})\n${build.tail(30)}`);
  if (!existsSync(join(dir, 'dist', 'apps', 'gateway', 'src', 'main.js'))) throw new Error(`npm run build of ${ref} wrote no dist/apps/gateway/src/main.js`);
  baseline.buildSeconds = Math.round((Date.now() - started) / 100) / 10;
  return baseline;
}

/**
 * Removes the baseline's worktree (synchronous, so it also runs from an `exit` handler): the
 * node_modules symlink first (so nothing can follow it into this checkout's packages), then
 * `git worktree remove --force`, else the directory and its stale worktree entry.
 */
function removeBaseline(baseline) {
  if (!baseline || baseline.removed) return;
  baseline.removed = true;
  try {
    unlinkSync(join(baseline.dir, 'node_modules'));
  } catch {
    /* not created yet, or gone */
  }
  try {
    if (existsSync(baseline.dir)) git(['worktree', 'remove', '--force', baseline.dir]);
  } catch {
    rmSync(baseline.dir, { recursive: true, force: true });
    try {
      git(['worktree', 'prune']);
    } catch {
      /* nothing to prune */
    }
  }
  rmSync(baseline.parent, { recursive: true, force: true });
}

module.exports = { prepareBaseline, removeBaseline };
