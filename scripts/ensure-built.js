#!/usr/bin/env node
// Builds dist/ when it is missing, older than any source file (the dashboard's .tsx, .css and
// .html included), or lacks a run-time asset (see copy-build-assets.js) or the built dashboard,
// so `npm start` works on a fresh clone and after a pull without a separate build step.
const { execSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { staleAssets } = require('./copy-build-assets');

const root = join(__dirname, '..');
const stamp = join(root, 'dist', '.build-stamp');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.(ts|tsx|mts|json|css|html)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function needsBuild() {
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  const sources = Math.max(newestSource(join(root, 'apps')), newestSource(join(root, 'libs')), statSync(join(root, 'tsconfig.json')).mtimeMs);
  const dashboardBuilt = existsSync(join(root, 'dist', 'apps', 'dashboard', 'index.html'));
  return sources > built || staleAssets().length > 0 || !dashboardBuilt;
}

function ensureBuilt() {
  if (!needsBuild()) return;
  process.stderr.write('rosetta: building (first start or sources changed)...\n');
  execSync('npm run --silent build', { cwd: root, stdio: 'inherit' });
  writeFileSync(stamp, new Date().toISOString());
}

if (require.main === module) ensureBuilt();
module.exports = { ensureBuilt };
