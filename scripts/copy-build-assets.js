#!/usr/bin/env node
// The last step of `npm run build`: the data files the gateway reads at run time, which tsc does
// not emit, copied into dist/ at the same relative paths. Code finds them beside itself
// (`join(__dirname, '..', 'catalog')` is libs/registry/catalog under ts-jest and
// dist/libs/registry/catalog when compiled), so dist/ alone — what the Docker image ships — is whole.
const { cpSync, existsSync, readdirSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');

const root = join(__dirname, '..');

/** Directories shipped whole. JSON imported from code (e.g. libs/mixture/src/profiles.json) is emitted by tsc itself. */
const ASSET_DIRS = ['libs/registry/catalog', 'libs/mixture/artefacts', 'libs/mixture-lab/sanity'];

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Every asset file, relative to the repository root. */
function assetFiles() {
  return ASSET_DIRS.flatMap((dir) => filesUnder(join(root, dir))).map((file) => relative(root, file));
}

function copyAssets(outDir = join(root, 'dist')) {
  for (const dir of ASSET_DIRS) cpSync(join(root, dir), join(outDir, dir), { recursive: true });
}

/** Assets absent from dist/ or older there than in the sources: dist/ needs a build. */
function staleAssets(outDir = join(root, 'dist')) {
  return assetFiles().filter((file) => {
    const built = join(outDir, file);
    return !existsSync(built) || statSync(built).mtimeMs < statSync(join(root, file)).mtimeMs;
  });
}

if (require.main === module) copyAssets();
module.exports = { ASSET_DIRS, copyAssets, staleAssets };
