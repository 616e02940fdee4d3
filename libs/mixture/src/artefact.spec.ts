import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultArtefactPath, loadRouterArtefact } from './artefact';

describe('loadRouterArtefact', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rosetta-artefact-'));
    writeFileSync(join(dir, 'not-an-artefact.json'), '{"format":"something else"}');
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads the shipped artefact from beside the code when ROUTER_ARTEFACT is unset', () => {
    const { path, artefact } = loadRouterArtefact(undefined);
    expect(path).toBe(defaultArtefactPath());
    expect(artefact.models.length).toBeGreaterThan(0);
  });

  it('names ROUTER_ARTEFACT only when the operator set it', () => {
    const missing = join(dir, 'nope.json');
    expect(() => loadRouterArtefact(missing)).toThrow(new RegExp(`^ROUTER_ARTEFACT: cannot load '${missing}': ENOENT`));
  });

  it('says the shipped artefact is missing from the build when it is, without blaming the unset variable', () => {
    const shipped = join(dir, 'dist', 'default.json');
    expect(() => loadRouterArtefact(undefined, shipped)).toThrow(
      `the shipped router artefact is missing: '${shipped}' is not in the build output (\`npm run build\` copies libs/mixture/artefacts into dist/, and a runtime image needs all of dist/; ROUTER_ARTEFACT is not set)`,
    );
  });

  it('says why a shipped artefact that is there cannot be used', () => {
    const shipped = join(dir, 'not-an-artefact.json');
    expect(() => loadRouterArtefact(undefined, shipped)).toThrow(
      `the shipped router artefact '${shipped}' cannot be loaded (ROUTER_ARTEFACT is not set): ${shipped}: not a rosetta-mixture-artefact v1 document`,
    );
  });
});
