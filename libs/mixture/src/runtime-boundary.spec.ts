/**
 * The gateway loads @rosetta/mixture; the offline tooling (CSV loading, fitting, evaluation, the
 * CLIs) lives in @rosetta/mixture-lab so that it does not. These fail as soon as the runtime
 * library reaches for the lab again, directly or through a file that does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const RUNTIME = __dirname;
const LAB = join(__dirname, '..', '..', 'mixture-lab');

/** Modules only the offline tooling may load: the lab itself and what only it depends on. */
const offline = (path: string): boolean => path.startsWith(LAB + sep) || path.includes(`${sep}node_modules${sep}csv-parse${sep}`);

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** What every `from '…'`, `import('…')` and `require('…')` of a source names. */
function specifiers(source: string): string[] {
  const found = source.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g);
  return [...found].map((m) => (m[1] ?? m[2]) as string);
}

/** The offline files that left this library, should one of them be imported back by name. */
const MOVED = /(^|\/)(csv|python-literal|load-routerbench|fit-router|evaluate|ceiling|cross-validation|rng|quality-fit|cost-fit|classifier-fit|cascade-fit)$/;

describe('the runtime router library stays free of the offline tooling', () => {
  it('loads no module of @rosetta/mixture-lab, nor csv-parse, when the gateway imports it', () => {
    jest.resetModules();
    jest.requireActual('@rosetta/mixture');
    const loaded = Object.keys(require.cache);
    // The registry must be visible for the check to mean anything.
    expect(loaded).toContain(join(RUNTIME, 'index.ts'));
    expect(loaded).toContain(join(RUNTIME, 'router.ts'));
    expect(loaded.filter(offline).map((path) => relative(join(RUNTIME, '..', '..', '..'), path))).toEqual([]);
  });

  it('has no source, spec or fixture that imports the lab, csv-parse or a moved offline module', () => {
    const offenders = sourcesUnder(RUNTIME).flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((s) => s.includes('mixture-lab') || s === 'csv-parse' || s.startsWith('csv-parse/') || (s.startsWith('.') && MOVED.test(s)))
        .map((s) => `${relative(RUNTIME, file)} imports '${s}'`),
    );
    expect(offenders).toEqual([]);
  });
});
