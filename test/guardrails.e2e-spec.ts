import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, TEST_ADMIN_TOKEN, type GatewayProcess } from './support/gateway-process';
import { askWith, GUARDED_DIALECTS, type GuardedDialect } from './support/guardrail-clients';
import { askForCalls } from './support/guardrail-tool-clients';
import { createTestDatabase, query, TEST_REDIS_URL } from './support/services';

/**
 * Guardrails (issue 31, ARCHITECTURE §9 "Governance", decision 0030) through the official SDKs of
 * all four dialects, streamed and not, against the gateway and the simulator: what the upstream
 * was sent, what the client got, and the request's ledger row.
 */
describe('guardrails', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess;
  const MODEL = 'rosetta/gpt-4o-mini';

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    gateway = await startGateway({
      DATABASE_URL: db.url,
      REDIS_URL: TEST_REDIS_URL,
      OPENAI_BASE_URL: `${sim.url}/v1`,
      OPENAI_API_KEY: 'sk-operator-000000000000',
      ANTHROPIC_BASE_URL: sim.url,
      ANTHROPIC_API_KEY: 'sk-ant-operator-000000',
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    await db?.drop();
  });

  interface Row {
    status: number;
    error_type: string | null;
    cost_usd: string;
    attempts: number;
    streamed: boolean;
    guardrails: unknown;
  }

  /** The key's ledger rows once `count` have landed (each replica writes within a second or so). */
  async function rowsOf(keyId: string, count: number): Promise<Row[]> {
    for (let i = 0; ; i++) {
      const rows = await query<Row>(db.url, 'SELECT status, error_type, cost_usd::text, attempts, streamed, guardrails FROM request_log WHERE api_key_id = $1 ORDER BY created_at', [keyId]);
      if (rows.length >= count || i >= 100) return rows;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const upstreamBodiesWith = (marker: string): string[] => sim.requests().map((r) => JSON.stringify(r.body)).filter((body) => body.includes(marker));
  const verdict = (source: string, index: number, check: string, stage: string, action: string, kinds: string[]) => ({ check, source, index, stage, action, kinds });
  const cases = GUARDED_DIALECTS.flatMap((dialect) => [false, true].map((stream) => [dialect, stream] as [GuardedDialect, boolean]));

  describe('on input', () => {
    it.each(cases)('%s (stream %s): redacts the prompt before the upstream sees it', async (dialect, stream) => {
      const key = await createKey(gateway, 'pro', { guardrails: [{ check: 'pii', on: 'input', action: 'redact', kinds: ['email'] }] });
      const marker = `in-redact-${dialect}-${stream}`;
      const seen = await askWith(dialect, gateway.url, key.key, MODEL, `${marker} my address is jane.doe@corp.example ok`, stream);
      expect(seen.error).toBeUndefined();
      expect(seen.text).toContain(`${marker} my address is [REDACTED:email] ok`);
      const sent = upstreamBodiesWith(marker);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toContain('my address is [REDACTED:email] ok');
      expect(sent[0]).not.toContain('jane.doe');
      const [row] = await rowsOf(key.id, 1);
      expect(row).toMatchObject({ status: 200, error_type: null, streamed: stream, guardrails: [verdict('key', 0, 'pii', 'input', 'redact', ['email'])] });
    });

    it.each(cases)('%s (stream %s): blocks a prompt with a 400 guardrail_violation that never reaches an upstream', async (dialect, stream) => {
      const team = await adminCall(gateway, 'POST', '/admin/teams', { name: `block-${dialect}-${stream}`, guardrails: [{ check: 'secrets', on: 'input', action: 'block' }] });
      expect(team.status).toBe(201);
      const key = await createKey(gateway, 'pro', { team_id: team.body.id });
      const marker = `in-block-${dialect}-${stream}`;
      const secret = 'sk-proj-abcdefghijklmnopqrstuvwx';
      const seen = await askWith(dialect, gateway.url, key.key, MODEL, `${marker} use ${secret} please`, stream);
      expect(seen.text).toBe('');
      expect(seen.error?.status).toBe(400);
      expect(seen.error?.message).toContain("Blocked by the team's guardrail 0 (secrets: openai_key) on input.");
      expect(seen.error?.message).not.toContain(secret);
      expect(upstreamBodiesWith(marker)).toEqual([]);
      const [row] = await rowsOf(key.id, 1);
      expect(row).toEqual({ status: 400, error_type: 'guardrail_violation', cost_usd: '0.000000000000', attempts: 0, streamed: stream, guardrails: [verdict('team', 0, 'secrets', 'input', 'block', ['openai_key'])] });
    });
  });

  describe('on output', () => {
    const answer = 'Sure. Write to jane.doe@corp.example and we will answer within a day or two, promptly.';

    it.each(cases)('%s (stream %s): redacts the answer before the client sees it', async (dialect, stream) => {
      await adminCall(gateway, 'PUT', `/admin/plans/out-redact-${dialect}-${stream}`, { rpm: null, tpm: null, guardrails: [{ check: 'pii', on: 'output', action: 'redact' }] });
      const key = await createKey(gateway, `out-redact-${dialect}-${stream}`);
      const marker = `out-redact-${dialect}-${stream}`;
      sim.script({ match: marker, reply: { text: answer } });
      const seen = await askWith(dialect, gateway.url, key.key, MODEL, `${marker}: how do I reach you?`, stream);
      expect(seen).toEqual({ text: 'Sure. Write to [REDACTED:email] and we will answer within a day or two, promptly.' });
      const [row] = await rowsOf(key.id, 1);
      expect(row).toMatchObject({ status: 200, error_type: null, guardrails: [verdict('plan', 0, 'pii', 'output', 'redact', ['email'])] });
    });

    it.each(cases)('%s (stream %s): blocks the answer (in a stream: the in-stream error, none of the violation sent)', async (dialect, stream) => {
      const key = await createKey(gateway, 'pro', { guardrails: [{ check: 'pii', on: 'output', action: 'block', kinds: ['email'] }] });
      const marker = `out-block-${dialect}-${stream}`;
      // Paced as a model writes: the text before the violation is released while the answer is
      // still coming, and Gemini's in-stream error (a bare JSON read, as Google sends it) arrives
      // in a read of its own, as it does from Google.
      sim.script({ match: marker, reply: { text: answer, tokensPerSecond: 40 } });
      const seen = await askWith(dialect, gateway.url, key.key, MODEL, `${marker}: how do I reach you?`, stream);
      expect(seen.error?.message).toContain("Blocked by the key's guardrail 0 (pii: email) on output.");
      expect(`${seen.text}${seen.error?.message}`).not.toContain('jane.doe');
      if (!stream) expect(seen).toEqual({ text: '', error: { status: 400, message: expect.any(String) } });
      // What came before the violation was released, not held back a whole pattern's length.
      else expect(answer.startsWith(seen.text) && seen.text.startsWith('Sure. Write')).toBe(true);
      const [row] = await rowsOf(key.id, 1);
      expect(row).toMatchObject({ status: stream ? 200 : 400, error_type: 'guardrail_violation', attempts: 1, guardrails: [verdict('key', 0, 'pii', 'output', 'block', ['email'])] });
      // The upstream answered: its cost stays on the row.
      expect(Number(row!.cost_usd)).toBeGreaterThan(0);
    });
  });

  describe('on output: tool-call arguments and thinking', () => {
    const mail = { to: 'jane.doe@corp.example', body: 'Call +1 415 555 2671 about card 4111 1111 1111 1111.', n: 4111111111111111 };

    it.each(cases)('%s (stream %s): redacts inside tool-call arguments, which stay valid JSON', async (dialect, stream) => {
      const key = await createKey(gateway, 'pro', { guardrails: [{ check: 'pii', on: 'output', action: 'redact' }] });
      const marker = `tool-redact-${dialect}-${stream}`;
      sim.script({ match: marker, reply: { toolCalls: [{ name: 'send_mail', arguments: mail }], finish: 'tool_calls' } });
      const seen = await askForCalls(dialect, gateway.url, key.key, MODEL, `${marker}: write to Jane`, stream);
      expect(seen.error).toBeUndefined();
      // A redacted number is sent as a string: the arguments are still JSON, and nothing of the card is left.
      expect(seen.calls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual([
        ['send_mail', { to: '[REDACTED:email]', body: 'Call [REDACTED:phone] about card [REDACTED:card].', n: '[REDACTED:card]' }],
      ]);
      const [row] = await rowsOf(key.id, 1);
      expect(row).toMatchObject({ status: 200, error_type: null, guardrails: [verdict('key', 0, 'pii', 'output', 'redact', ['card', 'email', 'phone'])] });
    });

    it.each(cases)('%s (stream %s): blocks an answer whose tool-call arguments hold a blocked secret, sending none of it', async (dialect, stream) => {
      const key = await createKey(gateway, 'pro', { guardrails: [{ check: 'secrets', on: 'output', action: 'block' }] });
      const marker = `tool-block-${dialect}-${stream}`;
      const secret = 'sk-proj-abcdefghijklmnopqrstuvwx';
      sim.script({ match: marker, reply: { toolCalls: [{ name: 'send_mail', arguments: { to: 'ops', body: `log in with ${secret} today` } }], finish: 'tool_calls' } });
      const seen = await askForCalls(dialect, gateway.url, key.key, MODEL, `${marker}: send the login`, stream);
      expect(seen.error?.message).toContain("Blocked by the key's guardrail 0 (secrets: openai_key) on output.");
      expect(JSON.stringify(seen)).not.toContain('sk-proj');
      if (!stream) expect(seen).toEqual({ calls: [], thinking: [], error: { status: 400, message: expect.any(String) } });
      const [row] = await rowsOf(key.id, 1);
      expect(row).toMatchObject({ status: stream ? 200 : 400, error_type: 'guardrail_violation', guardrails: [verdict('key', 0, 'secrets', 'output', 'block', ['openai_key'])] });
    });

    it.each([false, true])('anthropic (stream %s): redacts thinking, and a redacted thinking block loses its signature (a clean one keeps it)', async (stream) => {
      const key = await createKey(gateway, 'pro', { guardrails: [{ check: 'pii', on: 'output', action: 'redact', kinds: ['email'] }] });
      const marker = `thinking-redact-${stream}`;
      sim.script({ match: `${marker} a`, reply: { thinking: { text: 'The user is jane.doe@corp.example, so I will mail her.' }, toolCalls: [{ name: 'send_mail', arguments: { to: 'team' } }], finish: 'tool_calls' } });
      sim.script({ match: `${marker} b`, reply: { thinking: { text: 'Nothing private here.' }, toolCalls: [{ name: 'send_mail', arguments: { to: 'team' } }], finish: 'tool_calls' } });
      const redacted = await askForCalls('anthropic', gateway.url, key.key, 'rosetta/claude-haiku-4-5', `${marker} a`, stream, true);
      expect(redacted.error).toBeUndefined();
      expect(redacted.thinking).toEqual([{ text: 'The user is [REDACTED:email], so I will mail her.', signature: '' }]);
      expect(redacted.calls.map((call) => JSON.parse(call.arguments))).toEqual([{ to: 'team' }]);
      const clean = await askForCalls('anthropic', gateway.url, key.key, 'rosetta/claude-haiku-4-5', `${marker} b`, stream, true);
      expect(clean.thinking).toEqual([{ text: 'Nothing private here.', signature: expect.stringMatching(/.{16,}/) }]);
      const rows = await rowsOf(key.id, 2);
      expect(rows.map((r) => r.guardrails)).toEqual(expect.arrayContaining([[verdict('key', 0, 'pii', 'output', 'redact', ['email'])], null]));
    });
  });

  it('applies output checks to response-cache hits too (the cache keeps the answer as the upstream gave it)', async () => {
    const key = await createKey(gateway, 'pro', { cache: { mode: 'exact', ttl_s: 600 }, guardrails: [{ check: 'pii', on: 'output', action: 'redact' }] });
    const marker = 'cache-hit-guarded';
    sim.script({ match: marker, reply: { text: 'Reach jane.doe@corp.example.' } });
    expect(await askWith('openai', gateway.url, key.key, MODEL, marker, false)).toEqual({ text: 'Reach [REDACTED:email].' });
    expect(await askWith('anthropic', gateway.url, key.key, MODEL, marker, true)).toEqual({ text: 'Reach [REDACTED:email].' });
    expect(upstreamBodiesWith(marker)).toHaveLength(1);
    const rows = await rowsOf(key.id, 2);
    expect(rows.map((r) => r.guardrails)).toEqual([[verdict('key', 0, 'pii', 'output', 'redact', ['email'])], [verdict('key', 0, 'pii', 'output', 'redact', ['email'])]]);
  });

  it('applies input checks to embeddings: each text redacted before the upstream, or the request blocked', async () => {
    const key = await createKey(gateway, 'pro', { guardrails: [{ check: 'pii', on: 'input', action: 'redact', kinds: ['email'] }, { check: 'secrets', on: 'both', action: 'block' }] });
    const openai = new OpenAI({ apiKey: key.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const embedded = await openai.embeddings.create({ model: 'rosetta/text-embedding-3-small', input: ['embed-redact one@corp.example', 'embed-redact plain'] });
    expect(embedded.data).toHaveLength(2);
    expect(upstreamBodiesWith('embed-redact')).toEqual([expect.stringContaining('["embed-redact [REDACTED:email]","embed-redact plain"]')]);
    const refused = await openai.embeddings.create({ model: 'rosetta/text-embedding-3-small', input: 'embed-block ghp_abcdefghijklmnopqrstuvwxyz0123456789' }).catch((e: unknown) => e as { status: number; message: string });
    expect(refused).toMatchObject({ status: 400, message: expect.stringContaining("Blocked by the key's guardrail 1 (secrets: github_token) on input.") });
    expect(upstreamBodiesWith('embed-block')).toEqual([]);
    const rows = await rowsOf(key.id, 2);
    expect(rows.map((r) => [r.status, r.error_type, r.guardrails])).toEqual([
      [200, null, [verdict('key', 0, 'pii', 'input', 'redact', ['email'])]],
      [400, 'guardrail_violation', [verdict('key', 1, 'secrets', 'input', 'block', ['github_token'])]],
    ]);
  });

  describe('the admin API', () => {
    const checks = [
      { check: 'pii', on: 'both', action: 'redact', kinds: ['email', 'card'] },
      { check: 'regex', on: 'input', action: 'block', patterns: [{ pattern: 'PRJ-\\d{1,8}', name: 'ticket' }], ignore_case: true },
      { check: 'webhook', on: 'input', action: 'block', url: 'http://127.0.0.1:9/check?token=s3cret', timeout_ms: 500, fail: 'open' },
    ];

    it('stores, shows and removes guardrails on plans, teams and keys', async () => {
      const plan = await adminCall(gateway, 'PUT', '/admin/plans/guarded', { rpm: 100, tpm: null, guardrails: checks });
      expect(plan).toEqual({ status: 201, body: { name: 'guarded', rpm: 100, tpm: null, cache: null, prompt_cache: null, guardrails: checks } });
      expect((await adminCall(gateway, 'GET', '/admin/plans/guarded')).body.guardrails).toEqual(checks);
      expect((await adminCall(gateway, 'PATCH', '/admin/plans/guarded', { guardrails: null })).body.guardrails).toBeNull();
      const team = await adminCall(gateway, 'POST', '/admin/teams', { name: 'guarded-team', guardrails: checks.slice(0, 1) });
      expect(team.body.guardrails).toEqual(checks.slice(0, 1));
      expect((await adminCall(gateway, 'PATCH', `/admin/teams/${team.body.id}`, { guardrails: [] })).body.guardrails).toBeNull();
      const key = await createKey(gateway, 'pro', { guardrails: [{ check: 'secrets', on: 'input', action: 'log' }] });
      expect((await adminCall(gateway, 'GET', `/admin/keys/${key.id}`)).body.guardrails).toEqual([{ check: 'secrets', on: 'input', action: 'log' }]);
    });

    it('audits a change without the webhook URL query values', async () => {
      const key = await createKey(gateway, 'pro', { guardrails: checks });
      const audit = await adminCall(gateway, 'GET', `/admin/audit?action=key.create&target=${key.id}`);
      const details = JSON.stringify(audit.body.data[0].details);
      expect(details).toContain('127.0.0.1:9/check');
      expect(details).not.toContain('s3cret');
    });

    it("refuses a webhook check's URL the SSRF guard refuses (private, credentials, metadata) when it is saved, naming it", async () => {
      const urls = ['https://10.0.0.7/check', 'https://user:pw@127.0.0.1/check', 'http://169.254.169.254/latest', 'https://localhost/check'];
      for (const url of urls) {
        const refused = await adminCall(gateway, 'POST', '/admin/keys', { name: 'ssrf', plan: 'pro', guardrails: [checks[0], { check: 'webhook', on: 'input', action: 'block', url }] });
        expect({ url, status: refused.status, param: refused.body.error?.param }).toEqual({ url, status: 400, param: 'guardrails[1].url' });
      }
    });

    it('refuses a bad policy with a 400 naming the field path, never echoing the value', async () => {
      const bad = await adminCall(gateway, 'POST', '/admin/keys', {
        name: 'bad',
        plan: 'pro',
        guardrails: [checks[0], { check: 'regex', on: 'input', action: 'block', patterns: ['ok', '(secretvalue)\\1'] }],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.param).toBe('guardrails[1].patterns[1]');
      expect(bad.body.error.message).toContain('guardrails[1].patterns[1]');
      expect(bad.body.error.message).not.toContain('secretvalue');
      const nul = await adminCall(gateway, 'PUT', '/admin/plans/nul', { rpm: 1, tpm: 1, guardrails: [{ check: 'regex', on: 'input', action: 'log', patterns: [{ pattern: 'a', name: 'ok' }, 'b\u0000'] }] });
      expect(nul.status).toBe(400);
    });

    it('never answers a hostile policy with a 5xx', async () => {
      let seed = 31;
      const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
      const value = (depth: number): unknown => {
        const r = random();
        if (depth > 3 || r < 0.3) return pick([null, true, 0, -1, 1e308, 'x', 'pii', 'both', 'block', 'a'.repeat(5000), '\ud800', '(a|a)*b', '(a+)+$', 'x{0,100000}']);
        if (r < 0.6) return Array.from({ length: Math.floor(random() * 5) }, () => value(depth + 1));
        const fields = ['check', 'on', 'action', 'kinds', 'patterns', 'pattern', 'name', 'url', 'timeout_ms', 'fail', 'model', 'categories', 'ignore_case', '__proto__'];
        return Object.fromEntries(Array.from({ length: Math.floor(random() * 6) }, () => [pick(fields), value(depth + 1)]));
      };
      const hostile: unknown[] = [
        Array.from({ length: 10_000 }, () => ({ check: 'pii', on: 'both', action: 'log' })),
        [{ check: 'regex', on: 'both', action: 'block', patterns: Array.from({ length: 32 }, () => '(a|aa){1,100}(b|bb){1,100}') }],
        [{ check: 'regex', on: 'input', action: 'block', patterns: ['(?=a)', '\\p{L}', '[', 'a**', '((((((((((a))))))))))*'] }],
        [{ check: 'webhook', on: 'input', action: 'block', url: `https://${'a'.repeat(3000)}.example` }],
        ...Array.from({ length: 150 }, () => value(0)),
      ];
      const statuses = new Set<number>();
      for (const guardrails of hostile) {
        const res = await adminCall(gateway, 'POST', '/admin/keys', { name: 'fuzz', plan: 'pro', guardrails });
        statuses.add(res.status);
        expect(res.status).toBeLessThan(500);
      }
      expect([...statuses].sort()).toEqual(expect.arrayContaining([400]));
    });
  });

  it('answers prompts of hundreds of thousands of digits under the built-in checks (a million blocked), and counts verdicts in /metrics', async () => {
    // Enterprise: no tokens-per-minute limit; 300,000 digits are about 100,000 tokens, within the model's context.
    const key = await createKey(gateway, 'enterprise', { guardrails: [{ check: 'pii', on: 'both', action: 'redact' }, { check: 'secrets', on: 'both', action: 'block' }] });
    const seen = await askWith('openai', gateway.url, key.key, MODEL, `mail a.b@corp.example digits ${'9'.repeat(300_000)}`, false);
    expect(seen.error).toBeUndefined();
    expect(seen.text).toContain('mail [REDACTED:email] digits 999');
    const blocked = await askWith('openai', gateway.url, key.key, MODEL, `${'4'.repeat(1_000_000)} AKIAABCDEFGHIJKLMNOP`, false);
    expect(blocked.error?.message).toContain("Blocked by the key's guardrail 1 (secrets: aws_access_key) on input.");
    const metrics = await (await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).text();
    expect(metrics).toMatch(/rosetta_guardrail_verdicts_total\{check="pii",stage="input",action="redact"\} [1-9]/);
    expect(metrics).toMatch(/rosetta_guardrail_verdicts_total\{check="secrets",stage="input",action="block"\} [1-9]/);
  });

  it('shows the verdicts in GET /admin/requests/{id}, the list and the NDJSON export', async () => {
    const key = await createKey(gateway, 'pro', { guardrails: [{ check: 'pii', on: 'input', action: 'log' }] });
    const res = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'call 415-555-0100 today' }] }),
    });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id')!;
    await rowsOf(key.id, 1);
    const logged = [verdict('key', 0, 'pii', 'input', 'log', ['phone'])];
    expect((await adminCall(gateway, 'GET', `/admin/requests/${id}`)).body.guardrails).toEqual(logged);
    expect((await adminCall(gateway, 'GET', `/admin/requests?key_id=${key.id}`)).body.data[0].guardrails).toEqual(logged);
    const exported = await fetch(`${gateway.url}/admin/requests?format=ndjson&key_id=${key.id}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(JSON.parse((await exported.text()).trim().split('\n')[0]!).guardrails).toEqual(logged);
  });

  it('works the same on the embedded PGlite database: policies stored, verdicts on the ledger', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rosetta-guardrails-pglite-'));
    const embedded = await startGateway({ ROSETTA_DATA_DIR: dataDir, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-operator-embedded-000000' });
    try {
      const team = await adminCall(embedded, 'POST', '/admin/teams', { name: 'pglite', guardrails: [{ check: 'pii', on: 'input', action: 'redact', kinds: ['email'] }] });
      expect(team.body.guardrails).toEqual([{ check: 'pii', on: 'input', action: 'redact', kinds: ['email'] }]);
      const key = await createKey(embedded, 'pro', { team_id: team.body.id });
      const res = await fetch(`${embedded.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'pglite-redact mail ann@corp.example' }] }),
      });
      expect(res.status).toBe(200);
      expect(upstreamBodiesWith('pglite-redact')).toEqual([expect.stringContaining('pglite-redact mail [REDACTED:email]')]);
      const id = res.headers.get('x-request-id')!;
      let found = await adminCall(embedded, 'GET', `/admin/requests/${id}`);
      for (let i = 0; found.status !== 200 && i < 100; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        found = await adminCall(embedded, 'GET', `/admin/requests/${id}`);
      }
      expect(found.body.guardrails).toEqual([verdict('team', 0, 'pii', 'input', 'redact', ['email'])]);
    } finally {
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
