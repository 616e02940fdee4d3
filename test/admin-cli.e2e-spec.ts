import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { runAdminCli as cli } from './support/admin-cli-run';
import { adminCall, startGateway, TEST_ADMIN_TOKEN, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase, query } from './support/services';

describe('admin CLI against a running gateway', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    // WEBHOOK_ALLOW_HOSTS: the webhooks step names a receiver on loopback.
    gateway = await startGateway({ DATABASE_URL: db.url, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-operator-000000000000', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
    env = { ROSETTA_URL: gateway.url, ADMIN_TOKEN: TEST_ADMIN_TOKEN };
  });

  afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    await db?.drop();
  });

  /** Runs a command that must succeed and returns its JSON output. */
  async function ok(...args: string[]): Promise<any> {
    const run = await cli(args, env);
    expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: '' });
    return JSON.parse(run.stdout);
  }

  it('plans: set needs both limits and never silently makes one unlimited; update changes only what it is given; delete', async () => {
    const refused = await cli(['plans', 'set', 'free', '--rpm', '5'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('plans set replaces the whole plan and needs both --rpm and --tpm (missing: --tpm');
    expect(refused.stderr).toContain('to change only what you gave: plans update free --rpm 5');
    expect(refused.stdout).toBe('');
    expect((await ok('plans', 'list'))).toContainEqual({ name: 'free', rpm: 100, tpm: 10000, cache: null, prompt_cache: null, guardrails: null });

    expect(await ok('plans', 'set', 'cli-plan', '--rpm', '5', '--tpm', '500')).toEqual({ name: 'cli-plan', rpm: 5, tpm: 500, cache: null, prompt_cache: null, guardrails: null });
    expect(await ok('plans', 'update', 'cli-plan', '--rpm', '9')).toEqual({ name: 'cli-plan', rpm: 9, tpm: 500, cache: null, prompt_cache: null, guardrails: null });
    expect(await ok('plans', 'update', 'cli-plan', '--tpm', 'unlimited')).toEqual({ name: 'cli-plan', rpm: 9, tpm: null, cache: null, prompt_cache: null, guardrails: null });
    expect(await ok('plans', 'delete', 'cli-plan')).toEqual({ name: 'cli-plan', rpm: 9, tpm: null, cache: null, prompt_cache: null, guardrails: null });

    const missing = await cli(['plans', 'update', 'cli-plan', '--rpm', '1'], env);
    expect(missing).toEqual({ code: 1, stdout: '', stderr: "error: HTTP 404: Plan 'cli-plan' not found; see GET /admin/plans\n" });
  });

  it('teams and keys: create, list, get, update, revoke; usage as CSV; a request looked up', async () => {
    const team = await ok('teams', 'create', '--name', 'cli-team', '--budget-usd', '5', '--budget-period', 'month');
    expect(team).toEqual(expect.objectContaining({ name: 'cli-team', budget_usd: '5', budget_period: 'month' }));
    expect((await ok('teams', 'list')).map((t: { id: string }) => t.id)).toContain(team.id);
    expect(await ok('teams', 'update', team.id, '--name', 'cli-team-2')).toEqual(expect.objectContaining({ id: team.id, name: 'cli-team-2' }));
    expect(await ok('teams', 'get', team.id)).toEqual(expect.objectContaining({ name: 'cli-team-2', spend_usd: '0' }));

    const key = await ok('keys', 'create', '--name', 'cli-key', '--plan', 'pro', '--team', team.id, '--models', 'rosetta/gpt-4o-mini');
    expect(key).toEqual(expect.objectContaining({ name: 'cli-key', plan: 'pro', team_id: team.id, models: ['rosetta/gpt-4o-mini'], key: expect.stringMatching(/^rsk_/) }));
    expect((await ok('keys', 'list')).map((k: { id: string }) => k.id)).toContain(key.id);
    expect(await ok('keys', 'update', key.id, '--rpm', '10', '--models', 'null')).toEqual(expect.objectContaining({ id: key.id, rpm: 10, tpm: null, models: null, plan: 'pro' }));

    const res = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 }),
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id')!;
    const row = await ok('requests', 'get', requestId);
    expect(row).toEqual(expect.objectContaining({ request_id: requestId, key_name: 'cli-key', team_name: 'cli-team-2', cost_usd: expect.stringMatching(/^\d+\.\d+$/) }));
    expect(await ok('keys', 'get', key.id)).toEqual(expect.objectContaining({ id: key.id, spend_usd: row.cost_usd }));

    const csv = await cli(['usage', '--group-by', 'team,key', '--team', team.id, '--csv'], env);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\r\n')).toEqual([
      'team_id,team_name,api_key_id,key_name,requests,errors,input_tokens,output_tokens,cached_tokens,reasoning_tokens,cost_usd,cache_hits,saved_usd',
      expect.stringMatching(new RegExp(`^${team.id},cli-team-2,${key.id},cli-key,1,0,\\d+,\\d+,0,0,${row.cost_usd.replace('.', '\\.')},0,0$`)),
      '',
    ]);
    const json = await ok('usage', '--group-by', 'key', '--key', key.id);
    expect(json.data).toEqual([expect.objectContaining({ api_key_id: key.id, key_name: 'cli-key', requests: 1, cost_usd: row.cost_usd })]);

    expect((await ok('keys', 'revoke', key.id)).revoked_at).toEqual(expect.any(String));
    const stored = await query<{ revoked: boolean }>(db.url, 'SELECT revoked_at IS NOT NULL AS revoked FROM api_keys WHERE id = $1', [key.id]);
    expect(stored).toEqual([{ revoked: true }]);
  });

  it('providers: set from a YAML file, list, delete; requests and the audit log listed (issue 27)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rosetta-cli-')), 'provider.yaml');
    writeFileSync(
      file,
      [
        'protocol: openai',
        `base_url: ${sim.url}/v1`,
        'api_key: cli-provider-key-000000',
        'endpoints:',
        '  - model: rosetta/cli-model',
        '    upstream_model: cli-model',
        '    context_length: 32000',
        '    max_completion_tokens: 4000',
        '    pricing: {prompt: "0.0000001", completion: "0.0000002"}',
      ].join('\n'),
    );
    await ok('providers', 'set', 'cli-vllm', '--file', file);
    const listed = (await ok('providers', 'list')) as any;
    const provider = (Array.isArray(listed) ? listed : listed.data).find((p: any) => p.slug === 'cli-vllm');
    expect(provider).toMatchObject({ slug: 'cli-vllm', protocol: 'openai', configured: true });
    expect(JSON.stringify(listed)).not.toContain('cli-provider-key-000000');
    const requests = await ok('requests', 'list', '--limit', '5');
    expect(Object.keys(requests)).toEqual(['data', 'next_cursor']);
    expect(requests.data[0]).toMatchObject({ request_id: expect.stringMatching(/^req_/), requested_model: 'rosetta/gpt-4o-mini' });
    const audit = await ok('audit', 'list', '--action', 'provider', '--limit', '5');
    expect(audit.data[0]).toMatchObject({ action: expect.stringMatching(/^provider\./), target_id: 'cli-vllm' });
    await ok('providers', 'delete', 'cli-vllm');
    const missing = await cli(['providers', 'set', 'x', '--file', join(tmpdir(), 'no-such-provider.yaml')], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('error: cannot read');
  });

  it('explains refusals from the gateway, mistakes in the command, and help', async () => {
    const inUse = await cli(['plans', 'delete', 'pro'], env);
    const keysOnPro = (await adminCall(gateway, 'GET', '/admin/keys')).body.filter((k: { plan: string }) => k.plan === 'pro').length;
    expect(keysOnPro).toBeGreaterThan(0);
    expect(inUse.code).toBe(1);
    expect(inUse.stderr).toMatch(/^error: HTTP 409: Plan 'pro' is in use by \d+ keys?/);

    const badDate = await cli(['usage', '--from', 'yesterday'], env);
    expect(badDate.code).toBe(1);
    expect(badDate.stderr).toContain("error: HTTP 400: Invalid 'from': must be an ISO 8601 date");
    expect(badDate.stderr).toContain('(param: from)');

    const typo = await cli(['plans', 'update', 'free', '--rmp', '5'], env);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("error: plans update: unknown option '--rmp'");
    expect(typo.stderr).toContain('usage: npm run admin -- plans update <name> [options]');

    const help = await cli(['keys', 'update', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: npm run admin -- keys update <id> [options]');
    expect(help.stdout).toContain('--budget-period <day|month|total>');
    const overview = await cli(['--help'], {});
    expect(overview.code).toBe(0);
    for (const command of ['keys create', 'teams update', 'plans set', 'plans update', 'plans delete', 'usage', 'requests get <id>']) expect(overview.stdout).toContain(command);

    const noToken = await cli(['keys', 'list'], { ROSETTA_URL: gateway.url });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('ADMIN_TOKEN is not set');
    const unreachable = await cli(['keys', 'list'], { ROSETTA_URL: 'http://127.0.0.1:9', ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('error: cannot reach the gateway at http://127.0.0.1:9');
  });

  // Caching (issue 29): what the gateway stores for each option, its refusals passed on with the
  // field they name, and a cache hit as the usage report and the request list show it.
  it('guardrails: a JSON list on the command line, a YAML file, null; a bad policy refused naming its path (issue 31)', async () => {
    const checks = [{ check: 'pii', on: 'both', action: 'redact', kinds: ['email'] }];
    expect(await ok('plans', 'set', 'guarded', '--rpm', '60', '--tpm', 'null', '--guardrails', JSON.stringify(checks))).toMatchObject({ name: 'guarded', guardrails: checks });
    const file = join(mkdtempSync(join(tmpdir(), 'rosetta-guardrails-')), 'checks.yaml');
    writeFileSync(file, '- check: secrets\n  on: input\n  action: block\n');
    const team = await ok('teams', 'create', '--name', 'guarded-team', '--guardrails', `@${file}`);
    expect(team.guardrails).toEqual([{ check: 'secrets', on: 'input', action: 'block' }]);
    expect((await ok('teams', 'update', team.id, '--guardrails', 'null')).guardrails).toBeNull();
    const refused = await cli(['keys', 'create', '--name', 'g', '--plan', 'guarded', '--guardrails', '[{"check": "regex", "on": "input", "action": "block", "patterns": ["(?=x)"]}]'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: HTTP 400: Invalid guardrails: guardrails\[0\]\.patterns\[0\]: .* \(param: guardrails\[0\]\.patterns\[0\]\)\n$/);
    const missing = await cli(['keys', 'update', team.id, '--guardrails', '@/nonexistent/checks.yaml'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('error: cannot read /nonexistent/checks.yaml');
  });

  it('plans: caching set with the limits, changed alone, and off again when set leaves it out', async () => {
    expect(await ok('plans', 'set', 'agents', '--rpm', '600', '--tpm', 'null', '--cache-mode', 'exact', '--cache-ttl', '86400', '--prompt-cache', 'auto')).toEqual({
      name: 'agents',
      rpm: 600,
      tpm: null,
      cache: { mode: 'exact', ttl_s: 86400, similarity: 0.95 },
      prompt_cache: 'auto',
      guardrails: null,
    });
    expect(await ok('plans', 'update', 'agents', '--cache-mode', 'off')).toMatchObject({ rpm: 600, cache: { mode: 'off' }, prompt_cache: 'auto' });
    expect(await ok('plans', 'update', 'agents', '--prompt-cache', 'null')).toMatchObject({ cache: { mode: 'off' }, prompt_cache: null });
    // `set` replaces the plan whole: caching it does not name is off.
    expect(await ok('plans', 'set', 'agents', '--rpm', '600', '--tpm', 'null')).toEqual({ name: 'agents', rpm: 600, tpm: null, cache: null, prompt_cache: null, guardrails: null });
  });

  it("passes the gateway's refusals on with the field they name; semantic where the database has the vector extension", async () => {
    const ttl = await cli(['plans', 'update', 'agents', '--cache-mode', 'exact', '--cache-ttl', '0'], env);
    expect({ code: ttl.code, param: /\(param: ([^)]+)\)\n$/.exec(ttl.stderr)?.[1] }).toEqual({ code: 1, param: 'cache.ttl_s' });
    const similarity = await cli(['plans', 'update', 'agents', '--cache-mode', 'exact', '--cache-similarity', '1.5'], env);
    expect({ code: similarity.code, param: /\(param: ([^)]+)\)\n$/.exec(similarity.stderr)?.[1] }).toEqual({ code: 1, param: 'cache.similarity' });
    const local = await cli(['plans', 'update', 'agents', '--cache-ttl', '60'], env);
    expect(local.code).toBe(2);
    expect(local.stderr).toContain('error: --cache-ttl goes with --cache-mode exact or semantic');

    // Stored where the database has pgvector; refused on the mode, saying why, where it has not.
    const semantic = await cli(['plans', 'update', 'agents', '--cache-mode', 'semantic', '--cache-similarity', '0.9'], env);
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

  it('webhooks: add (the generated secret shown once), list without secrets, remove; a refused URL named (issue 31)', async () => {
    const added = await ok('webhooks', 'add', '--url', 'http://127.0.0.1:9/cli-hook', '--events', 'budget.threshold,spend.daily');
    expect(added).toEqual({ id: expect.any(String), url: 'http://127.0.0.1:9/cli-hook', events: ['budget.threshold', 'spend.daily'], created_at: expect.any(String), last_delivery: null, secret: expect.stringMatching(/^whsec_/) });
    const listed = await ok('webhooks', 'list');
    expect(listed).toEqual([{ id: added.id, url: 'http://127.0.0.1:9/cli-hook', events: ['budget.threshold', 'spend.daily'], created_at: added.created_at, last_delivery: null }]);
    const refused = await cli(['webhooks', 'add', '--url', 'https://10.0.0.7/hook', '--events', 'spend.daily'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('`url` is not allowed: the host is not a public address');
    expect(await ok('webhooks', 'remove', added.id)).toEqual({ id: added.id, deleted: true });
    expect(await ok('webhooks', 'list')).toEqual([]);
  });
});
