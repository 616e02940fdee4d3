import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { OpenAIDriver } from './support/dialect-clients';
import { createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { assembleRuntimeTree, type RuntimeTree } from './support/runtime-tree';
import { createTestDatabase, TEST_REDIS_URL } from './support/services';
import { OPERATOR_KEYS } from './support/stack';

const ROOT = join(__dirname, '..');

/** Every file under `dir` except node_modules, relative to it. */
function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.name === 'node_modules') return [];
    return entry.isDirectory() ? filesUnder(path, base) : [relative(base, path)];
  });
}

/**
 * The image without Docker (test/support/runtime-tree.ts): the Dockerfile's build stage replayed
 * (`npm run build` on the build context, production packages as `npm prune --omit=dev` leaves
 * them), then exactly the runtime stage's COPY lines, started with its CMD and ENV against the
 * real PostgreSQL and Redis with the simulator as upstream. A file read from the sources at run
 * time, or a package only installed for development, fails here before it fails in a container.
 */
describe('runtime layout: the Docker image, assembled from the Dockerfile', () => {
  let tree: RuntimeTree;
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess;
  let key: string;
  let filesBeforeStart: string[];

  beforeAll(async () => {
    tree = assembleRuntimeTree(ROOT);
    filesBeforeStart = filesUnder(tree.workdir);
    [sim, db] = await Promise.all([startSimulator(), createTestDatabase()]);
    const [program, ...args] = tree.stage.cmd ?? [];
    if (program !== 'node') throw new Error(`the runtime stage's CMD should run node, not ${JSON.stringify(tree.stage.cmd)}`);
    const { PORT: _port, ...imageEnv } = tree.stage.env;
    gateway = await startGateway(
      {
        ...imageEnv,
        HOME: tree.workdir,
        DATABASE_URL: db.url,
        REDIS_URL: TEST_REDIS_URL,
        OPENAI_BASE_URL: `${sim.url}/v1`,
        ANTHROPIC_BASE_URL: sim.url,
        GEMINI_BASE_URL: sim.url,
        ...OPERATOR_KEYS,
      },
      { cwd: tree.workdir, args },
    );
    key = (await createKey(gateway, 'enterprise')).key;
  }, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    await db?.drop();
    tree?.remove();
  });

  it("starts node with the gateway's flags, as npm start does", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the launchers' CommonJS list
    const { GATEWAY_NODE_FLAGS } = require('../scripts/gateway-node-flags') as { GATEWAY_NODE_FLAGS: string[] };
    expect(tree.stage.cmd).toEqual(['node', ...GATEWAY_NODE_FLAGS, 'dist/apps/gateway/src/main.js']);
  });

  it('runs on the Node major these tests run on, with no node_modules above it to fall back on', () => {
    const image = /^node:(\d+)/.exec(tree.stage.image)?.[1];
    expect(`node:${image}`).toBe(`node:${process.versions.node.split('.')[0]}`);
    const ancestors: string[] = [];
    for (let dir = dirname(tree.workdir); dir !== dirname(dir); dir = dirname(dir)) ancestors.push(dir);
    expect(ancestors.filter((dir) => existsSync(join(dir, 'node_modules')))).toEqual([]);
  });

  it('holds the production packages, and not the build and test tools', () => {
    const modules = join(tree.workdir, 'node_modules');
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: object };
    expect(Object.keys(manifest.dependencies).filter((name) => !existsSync(join(modules, name)))).toEqual([]);
    expect(['typescript', 'jest', 'ts-jest', 'eslint', 'openai'].filter((name) => existsSync(join(modules, name)))).toEqual([]);
  });

  it('loads the router artefact shipped inside the image', () => {
    const line = gateway
      .output()
      .split('\n')
      .find((l) => l.includes('"msg":"router: artefact loaded"'));
    expect(line).toBeDefined();
    const artefact = (JSON.parse(line!) as { artefact: string }).artefact;
    expect(artefact.startsWith(join(tree.workdir, 'dist') + '/')).toBe(true);
  });

  it('is ready against PostgreSQL and Redis', async () => {
    const res = await fetch(`${gateway.url}/readyz`);
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: { status: 'ready', database: 'ok', redis: 'ok' } });
  });

  it('passes its own HEALTHCHECK', () => {
    const [program, ...args] = tree.stage.healthcheck ?? [];
    expect(program).toBe('node');
    const check = spawnSync(process.execPath, args, {
      cwd: tree.workdir,
      env: { PATH: process.env['PATH'], ...tree.stage.env, PORT: String(gateway.port) },
      timeout: 10_000,
    });
    expect(check.status).toBe(0);
  });

  it('lists the seed catalog on /v1/models', async () => {
    const res = await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const ids = ((await res.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['rosetta/auto', 'rosetta/gpt-4o-mini', 'rosetta/claude-haiku-4-5', 'rosetta/gemini-2.5-flash']));
  });

  it('answers a chat completion routed by rosetta/auto', async () => {
    const reply = await new OpenAIDriver(gateway.url, key).ask('rosetta/auto', 'Say hello in one short sentence.', { stream: false });
    expect(reply.text).not.toBe('');
    expect(reply.model).toMatch(/^rosetta\/(?!auto$)/);
    expect(reply.finish).toBe('stop');
  });

  it('writes nothing into its own tree (USER node, read-only root filesystem)', () => {
    expect(filesUnder(tree.workdir)).toEqual(filesBeforeStart);
  });
});
