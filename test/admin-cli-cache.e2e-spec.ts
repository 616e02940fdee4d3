import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { runAdminCli } from './support/admin-cli-run';
import { startGateway, TEST_ADMIN_TOKEN, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase, query } from './support/services';

/**
 * The admin CLI's caching options (issue 29) against a running gateway on PostgreSQL: what the
 * gateway stores for each, its refusals passed on with the field they name, and a cache hit as
 * the usage report and the request list show it.
 */
describe('admin CLI: response cache and prompt caching', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    gateway = await startGateway({ DATABASE_URL: db.url, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-operator-000000000000' });
    env = { ROSETTA_URL: gateway.url, ADMIN_TOKEN: TEST_ADMIN_TOKEN };
  });

  afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    await db?.drop();
  });

  /** Runs a command that must succeed and returns its JSON output. */
  async function ok(...args: string[]): Promise<any> {
    const run = await runAdminCli(args, env);
    expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: '' });
    return JSON.parse(run.stdout);
  }

  it('plans: caching set with the limits, changed alone, and off again when set leaves it out', async () => {
    expect(await ok('plans', 'set', 'agents', '--rpm', '600', '--tpm', 'null', '--cache-mode', 'exact', '--cache-ttl', '86400', '--prompt-cache', 'auto')).toEqual({
      name: 'agents',
      rpm: 600,
      tpm: null,
      cache: { mode: 'exact', ttl_s: 86400, similarity: 0.95 },
      prompt_cache: 'auto',
    });
    expect(await ok('plans', 'update', 'agents', '--cache-mode', 'off')).toMatchObject({ rpm: 600, cache: { mode: 'off' }, prompt_cache: 'auto' });
    expect(await ok('plans', 'update', 'agents', '--prompt-cache', 'null')).toMatchObject({ cache: { mode: 'off' }, prompt_cache: null });
    // `set` replaces the plan whole: caching it does not name is off.
    expect(await ok('plans', 'set', 'agents', '--rpm', '600', '--tpm', 'null')).toEqual({ name: 'agents', rpm: 600, tpm: null, cache: null, prompt_cache: null });
  });

  it("passes the gateway's refusals on with the field they name; semantic where the database has the vector extension", async () => {
    const ttl = await runAdminCli(['plans', 'update', 'agents', '--cache-mode', 'exact', '--cache-ttl', '0'], env);
    expect({ code: ttl.code, param: /\(param: ([^)]+)\)\n$/.exec(ttl.stderr)?.[1] }).toEqual({ code: 1, param: 'cache.ttl_s' });
    const similarity = await runAdminCli(['plans', 'update', 'agents', '--cache-mode', 'exact', '--cache-similarity', '1.5'], env);
    expect({ code: similarity.code, param: /\(param: ([^)]+)\)\n$/.exec(similarity.stderr)?.[1] }).toEqual({ code: 1, param: 'cache.similarity' });
    const local = await runAdminCli(['plans', 'update', 'agents', '--cache-ttl', '60'], env);
    expect(local.code).toBe(2);
    expect(local.stderr).toContain('error: --cache-ttl goes with --cache-mode exact or semantic');

    // Stored where the database has pgvector; refused on the mode, saying why, where it has not.
    const semantic = await runAdminCli(['plans', 'update', 'agents', '--cache-mode', 'semantic', '--cache-similarity', '0.9'], env);
    const [vector] = await query<{ known: boolean }>(db.url, "SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS known");
    expect(semantic.code).toBe(vector!.known ? 0 : 1);
    if (semantic.code === 0) {
      expect(JSON.parse(semantic.stdout)).toMatchObject({ cache: { mode: 'semantic', similarity: 0.9 } });
    } else {
      expect({ code: semantic.code, param: /\(param: ([^)]+)\)\n$/.exec(semantic.stderr)?.[1] }).toEqual({ code: 1, param: 'cache.mode' });
      expect(semantic.stderr).toMatch(/vector/);
    }
  });

  it("keys: their own caching over the plan's, back to the plan's with null; a hit in usage and the request list", async () => {
    const key = await ok('keys', 'create', '--name', 'cli-cache', '--plan', 'pro', '--cache-mode', 'exact', '--cache-ttl', '600');
    expect(key).toMatchObject({ cache: { mode: 'exact', ttl_s: 600, similarity: 0.95 }, prompt_cache: null });
    expect(await ok('keys', 'update', key.id, '--prompt-cache', 'off')).toMatchObject({ cache: { mode: 'exact', ttl_s: 600 }, prompt_cache: 'off' });

    const ask = () =>
      fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'the same question twice' }], max_tokens: 16 }),
      });
    const first = await ask();
    const second = await ask();
    expect([first.status, first.headers.get('x-rosetta-cache'), second.status, second.headers.get('x-rosetta-cache')]).toEqual([200, 'miss', 200, 'hit']);

    const hit = await ok('requests', 'get', second.headers.get('x-request-id')!);
    expect(hit).toMatchObject({ cache: 'hit', cost_usd: '0', saved_usd: expect.stringMatching(/^0\.\d*[1-9]\d*$/) });
    const listed = await ok('requests', 'list', '--key', key.id);
    expect(listed.data.map((row: { cache: string | null }) => row.cache)).toEqual(['hit', 'miss']);
    const usage = await ok('usage', '--group-by', 'key', '--key', key.id);
    expect(usage.data).toEqual([expect.objectContaining({ key_name: 'cli-cache', requests: 2, cache_hits: 1, saved_usd: hit.saved_usd })]);

    expect(await ok('keys', 'update', key.id, '--cache-mode', 'null', '--prompt-cache', 'null')).toMatchObject({ cache: null, prompt_cache: null });
  });
});
