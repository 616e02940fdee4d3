import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase } from './support/services';

/**
 * Provider preferences with two providers serving one model (two simulators, an OpenAI-protocol
 * `alpha` and an Anthropic-protocol `beta`, declared in a YAML PROVIDERS_FILE), fallbacks and
 * the models chain, safe overrides, and the registry records.
 */
describe('registry and routing engine', () => {
  let simA: RunningSimulator;
  let simB: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess;
  let key: string;
  let dir: string;
  let providersFile: string;
  const extraGateways: GatewayProcess[] = [];

  beforeAll(async () => {
    [simA, simB] = await Promise.all([startSimulator(), startSimulator()]);
    db = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'rosetta-providers-'));
    const file = (providersFile = join(dir, 'providers.yaml'));
    writeFileSync(
      file,
      `providers:
  - slug: alpha
    protocol: openai
    base_url: ${simA.url}/v1
    api_key_env: ALPHA_KEY
    data_collection: deny
    zdr: true
    endpoints:
      - { model: rosetta/shared-model, upstream_model: shared-a, quantization: fp8, context_length: 8000, max_completion_tokens: 1000, tools: true, vision: false,
          pricing: { prompt: "0.000001", completion: "0.000002" } }
      - { model: rosetta/fallback-model, upstream_model: fallback-a, context_length: 8000, max_completion_tokens: 1000, pricing: { prompt: "0.000001", completion: "0.000002" } }
      - { model: rosetta/breaker-model, upstream_model: breaker-a, context_length: 8000, max_completion_tokens: 1000, pricing: { prompt: "0.000001", completion: "0.000002" } }
  - slug: beta
    protocol: anthropic
    base_url: ${simB.url}
    api_key_env: BETA_KEY
    data_collection: allow
    endpoints:
      - { model: rosetta/shared-model, upstream_model: shared-b, quantization: bf16, context_length: 200000, max_completion_tokens: 4000, tools: false, vision: true,
          pricing: { prompt: "0.000003", completion: "0.000004" } }
      - { model: rosetta/fallback-model, upstream_model: fallback-b, context_length: 8000, max_completion_tokens: 1000, pricing: { prompt: "0.000003", completion: "0.000004" } }
      - { model: rosetta/breaker-model, upstream_model: breaker-b, context_length: 8000, max_completion_tokens: 1000, pricing: { prompt: "0.000003", completion: "0.000004" } }
  - slug: gamma
    protocol: openai
    base_url: http://127.0.0.1:9/v1
    api_key_env: ALPHA_KEY
    endpoints:
      - { model: rosetta/refused-model, upstream_model: nobody, context_length: 8000, max_completion_tokens: 1000, pricing: { prompt: "0.0000001", completion: "0.0000001" } }
      - { model: rosetta/shared-model, upstream_model: shared-g, context_length: 8000, max_completion_tokens: 1000, pricing: { prompt: "0.0000001", completion: "0.0000001" } }
`,
    );
    gateway = await startGateway({
      DATABASE_URL: db.url,
      PROVIDERS_FILE: file,
      ALPHA_KEY: 'alpha-operator-key-000',
      BETA_KEY: 'beta-operator-key-000',
      OPENAI_BASE_URL: `${simA.url}/v1`,
      OPENAI_API_KEY: 'sk-openai-operator-000000',
      ANTHROPIC_BASE_URL: simB.url,
      ANTHROPIC_API_KEY: 'sk-ant-operator-000000',
      UPSTREAM_FIRST_BYTE_TIMEOUT_MS: '1500',
      UPSTREAM_ALLOW_HOSTS: 'allowed.test,127.0.0.1',
      // The fallback tests break endpoints on purpose; the breaker has its own gateway below.
      CIRCUIT_BREAKER_FAILURES: '1000',
    });
    key = (await createKey(gateway, 'enterprise')).key;
  });

  afterAll(async () => {
    await Promise.all([gateway?.stop(), ...extraGateways.map((g) => g.stop())]);
    await Promise.all([simA?.close(), simB?.close()]);
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const chat = async (body: Record<string, unknown>) => {
    const res = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rosetta/shared-model', messages: [{ role: 'user', content: 'hello' }], ...body }),
    });
    return { status: res.status, provider: res.headers.get('x-rosetta-provider'), attempts: res.headers.get('x-rosetta-attempts'), warnings: res.headers.get('x-rosetta-warnings'), body: (await res.json()) as any };
  };

  describe('each preference field', () => {
    it.each([
      ['provider_order', { provider_order: ['beta'] }, 'beta'],
      ['provider_only', { provider_only: ['beta'] }, 'beta'],
      ['provider_ignore', { provider_ignore: ['alpha', 'gamma'] }, 'beta'],
      ['provider_sort price', { provider_sort: 'price', provider_ignore: ['gamma'] }, 'alpha'],
      ['provider_quantizations', { provider_quantizations: ['bf16'] }, 'beta'],
      ['provider_zdr', { provider_zdr: true }, 'alpha'],
      ['provider_data_collection', { provider_data_collection: 'deny' }, 'alpha'],
      ['provider_max_prompt_price', { provider_max_prompt_price: 2, provider_ignore: ['gamma'] }, 'alpha'],
      ['provider_max_completion_price', { provider_max_completion_price: 3, provider_ignore: ['gamma'] }, 'alpha'],
      ['nested OpenRouter provider object', { provider: { order: ['beta'] } }, 'beta'],
    ])('%s', async (_name, prefs, expected) => {
      const res = await chat(prefs);
      expect(res.status).toBe(200);
      expect(res.provider).toBe(expected);
    });

    it('tools go only to endpoints with tool support; images only to vision endpoints', async () => {
      const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }];
      expect((await chat({ tools, provider_ignore: ['gamma'] })).provider).toBe('alpha');
      const image = [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }, { type: 'text', text: 'what is it' }];
      expect((await chat({ messages: [{ role: 'user', content: image }] })).provider).toBe('beta');
    });

    it('provider_require_parameters keeps only endpoints that honour every parameter', async () => {
      const res = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'rosetta/shared-model', max_tokens: 50, top_k: 3, provider_require_parameters: true, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-rosetta-provider')).toBe('beta');
    });

    it.each([
      [{ provider_quantizations: ['int4'] }, 'provider_quantizations', "No endpoint of 'rosetta/shared-model' satisfies provider_quantizations (int4)"],
      [{ provider_max_prompt_price: 0.05 }, 'provider_max_prompt_price', "No endpoint of 'rosetta/shared-model' satisfies provider_max_prompt_price (0.05 USD per million)"],
      [{ provider_enforce_distillable_text: true }, 'provider_enforce_distillable_text', undefined],
      [{ provider_only: ['nobody'] }, 'provider_only', undefined],
    ])('an empty candidate set is a 400 naming the filter: %j', async (prefs, param, message) => {
      const res = await chat(prefs);
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe(param);
      expect(res.body.error.message).toContain(param);
      if (message) expect(res.body.error.message).toBe(message);
    });

    it('a prompt larger than every context window is refused naming the limit; a large output cap is lowered with a warning', async () => {
      const huge = await chat({ provider_only: ['alpha'], messages: [{ role: 'user', content: 'word '.repeat(9000) }] });
      expect(huge.status).toBe(400);
      expect(huge.body.error.message).toContain('context length');
      const clamped = await chat({ provider_only: ['alpha'], max_tokens: 5000 });
      expect(clamped.status).toBe(200);
      expect(clamped.warnings).toContain('max_tokens: lowered to 1000');
      const strict = await chat({ provider_only: ['alpha'], max_tokens: 5000, provider_require_parameters: true });
      expect(strict.status).toBe(400);
    });
  });

  describe('fallbacks', () => {
    const m = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}`;

    it.each([
      ['5xx', { error: { status: 503, message: 'down' } }],
      ['429', { error: { status: 429, message: 'busy' } }],
      ['a failure before the first stream byte', { streamErrorAfterChunks: 0 }],
    ])('falls back from alpha to beta on %s, streamed and not', async (_name, reply) => {
      for (const stream of [false, true]) {
        const marker = m('fb');
        simA.script({ match: marker, reply });
        const res = await fetch(`${gateway.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'rosetta/fallback-model', stream, provider_order: ['alpha', 'beta'], messages: [{ role: 'user', content: marker }] }),
        });
        const text = await res.text();
        expect(res.status).toBe(200);
        expect(res.headers.get('x-rosetta-provider')).toBe('beta');
        expect(Number(res.headers.get('x-rosetta-attempts'))).toBeGreaterThanOrEqual(2);
        const content = stream
          ? text.split('\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)).choices[0]?.delta?.content ?? '').join('')
          : JSON.parse(text).choices[0].message.content;
        expect(content).toBe(`Simulated reply from fallback-b: ${marker}`);
        expect(text).not.toContain('"error"');
      }
    });

    it('falls back on an upstream time-out and on a refused connection', async () => {
      const marker = m('slow');
      simA.script({ match: marker, reply: { text: 'late', latencyMs: 4000 } });
      const slow = await chat({ model: 'rosetta/fallback-model', provider_order: ['alpha', 'beta'], messages: [{ role: 'user', content: marker }] });
      expect(slow.status).toBe(200);
      expect(slow.provider).toBe('beta');
      const refused = await chat({ provider_order: ['gamma', 'beta'] });
      expect(refused.status).toBe(200);
      expect(refused.provider).toBe('beta');
    });

    it('with allow_fallbacks false the listed provider error is returned', async () => {
      const marker = m('nofb');
      simA.script({ match: marker, reply: { error: { status: 500, message: 'alpha is down' } } });
      const res = await chat({ model: 'rosetta/fallback-model', provider: { order: ['alpha'], allow_fallbacks: false }, messages: [{ role: 'user', content: marker }] });
      expect(res.status).toBe(502);
      expect(res.body.error).toEqual(expect.objectContaining({ type: 'upstream_error', message: 'Upstream service error: alpha is down' }));
    });

    it('a failing endpoint opens its circuit (skipped without a call) and recovers after the cool-down', async () => {
      const strict = await startGateway({
        DATABASE_URL: db.url,
        PROVIDERS_FILE: providersFile,
        ALPHA_KEY: 'alpha-operator-key-000',
        BETA_KEY: 'beta-operator-key-000',
        CIRCUIT_BREAKER_FAILURES: '3',
        CIRCUIT_BREAKER_COOLDOWN_MS: '1500',
      });
      extraGateways.push(strict);
      const send = (content: string) =>
        fetch(`${strict.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'rosetta/breaker-model', provider_order: ['alpha', 'beta'], messages: [{ role: 'user', content }] }),
        }).then(async (res) => ({ provider: res.headers.get('x-rosetta-provider'), attempts: res.headers.get('x-rosetta-attempts'), status: res.status, body: await res.text() }));
      const failing = m('breaker');
      simA.script({ match: failing, reply: { error: { status: 500, message: 'broken' } } });
      const ask = () => send(failing);
      await ask(); // alpha fails twice (one retry), beta serves
      await ask(); // the third failure opens alpha's circuit
      const before = simA.requests().length;
      const skipped = await ask();
      expect(skipped.provider).toBe('beta');
      expect(skipped.attempts).toBe('1');
      expect(simA.requests().length).toBe(before);
      await new Promise((r) => setTimeout(r, 1700));
      const probe = await send(m('recovered'));
      expect(probe.provider).toBe('alpha');
      expect(probe.attempts).toBe('1');
    });

    it('the models chain falls back across protocols and reports the served model', async () => {
      const marker = m('chain');
      simA.script({ match: marker, reply: { error: { status: 500, message: 'openai side down' } } });
      const res = await chat({ model: 'rosetta/gpt-4o-mini', models: ['rosetta/claude-haiku-4-5'], messages: [{ role: 'user', content: marker }] });
      expect(res.status).toBe(200);
      expect(res.body.model).toBe('rosetta/claude-haiku-4-5');
      expect(res.provider).toBe('anthropic');
      expect(simB.requests().some((r) => r.protocol === 'anthropic' && JSON.stringify(r.body).includes(marker))).toBe(true);
    });
  });

  describe('provider_configs', () => {
    it('a caller key (BYOK) reaches the upstream instead of the operator key', async () => {
      const marker = `byok-${Date.now()}`;
      await chat({ provider_only: ['alpha'], provider_configs: { alpha: { api_key: 'caller-own-key' } }, messages: [{ role: 'user', content: marker }] });
      const request = simA.requests().find((r) => JSON.stringify(r.body).includes(marker))!;
      expect(request.headers['authorization']).toBe('Bearer caller-own-key');
    });

    it.each([
      [{ alpha: { base_url: 'https://example.com/v1' } }, 'provider_configs.alpha.base_url', 'needs an api_key'],
      [{ alpha: { api_key: 'k', base_url: 'https://169.254.169.254/v1' } }, 'provider_configs.alpha.base_url', 'not allowed'],
      [{ alpha: { api_key: 'k', base_url: 'https://10.0.0.7/v1' } }, 'provider_configs.alpha.base_url', 'not allowed'],
      [{ alpha: { api_key: 'k', base_url: 'https://[::ffff:127.0.0.1]/v1' } }, 'provider_configs.alpha.base_url', 'not allowed'],
      // 3232235777 is 192.168.1.1 written as one number (127.0.0.1 is on this test's allow-list).
      [{ alpha: { api_key: 'k', base_url: 'https://3232235777/v1' } }, 'provider_configs.alpha.base_url', 'not allowed'],
      [{ alpha: { api_key: 'k', base_url: 'http://example.com/v1' } }, 'provider_configs.alpha.base_url', 'not allowed'],
    ])('refuses an unsafe base_url: %j', async (configs, param, text) => {
      const res = await chat({ provider_only: ['alpha'], provider_configs: configs });
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe(param);
      expect(res.body.error.message).toContain(text);
    });

    it('an allow-listed host may be used with the caller key, and endpoint_overrides set the timeout', async () => {
      const marker = `allow-${Date.now()}`;
      const ok = await chat({ provider_only: ['beta'], provider_configs: { beta: { api_key: 'caller-b', base_url: simB.url } }, messages: [{ role: 'user', content: marker }] });
      expect(ok.status).toBe(200);
      expect(simB.requests().find((r) => JSON.stringify(r.body).includes(marker))!.headers['x-api-key']).toBe('caller-b');
      const slow = `override-${Date.now()}`;
      simB.script({ match: slow, reply: { text: 'late', latencyMs: 1000 } });
      const timedOut = await chat({ provider_only: ['beta'], provider_configs: { beta: { endpoint_overrides: { 'rosetta/shared-model': { timeout: 200 } } } }, messages: [{ role: 'user', content: slow }] });
      expect(timedOut.status).toBe(504);
    });
  });

  describe('registry', () => {
    it('serves the model record with every provider endpoint, field by field', async () => {
      const res = await fetch(`${gateway.url}/v1/models/rosetta/shared-model`, { headers: { 'x-api-key': key } });
      const record = (await res.json()) as any;
      expect(record).toEqual(
        expect.objectContaining({
          id: expect.any(Number),
          model_name: 'rosetta/shared-model',
          context_length: 200000,
          top_provider: { context_length: 200000, is_moderated: 'false', max_completion_tokens: 4000 },
          supported_parameters: expect.arrayContaining([{ parameter_name: 'tools' }]),
        }),
      );
      const alpha = record.providers.find((p: any) => p.name === 'alpha');
      expect(alpha).toEqual(
        expect.objectContaining({
          provider_model_name: 'shared-a',
          quantization: 'fp8',
          is_zdr: 'true',
          context_length: 8000,
          max_completion_tokens: 1000,
          status: 0,
          pricing: expect.objectContaining({ prompt_cost: '0.000001', completion_cost: '0.000002' }),
        }),
      );
      // alpha served the preference tests above: live uptime is a percentage, not null.
      expect(alpha.uptime_last_30m).toMatch(/^\d{1,3}\.\d{2}$/);
      expect(Number(alpha.uptime_last_30m)).toBeGreaterThan(0);
    });

    it('the catalog is seeded with sourced models, and admins add providers at run time', async () => {
      const list = (await (await fetch(`${gateway.url}/v1/models`, { headers: { 'x-api-key': key } })).json()) as any;
      const ids = list.data.map((m: any) => m.id);
      expect(ids).toEqual(expect.arrayContaining(['rosetta/auto', 'rosetta/gpt-4.1', 'rosetta/claude-sonnet-4-5', 'rosetta/shared-model']));
      // Catalog models no configured provider serves (no GEMINI_API_KEY or GROQ_API_KEY here) are
      // not offered: they would only answer 503. Their records stay readable.
      expect(ids).not.toContain('rosetta/gemini-2.5-pro');
      expect(ids).not.toContain('rosetta/llama-3.3-70b');
      expect((await fetch(`${gateway.url}/v1/models/rosetta/llama-3.3-70b`, { headers: { 'x-api-key': key } })).status).toBe(200);
      const put = await adminCall(gateway, 'PUT', '/admin/providers/delta', {
        protocol: 'openai',
        base_url: `${simA.url}/v1`,
        api_key: 'delta-secret-key',
        endpoints: [{ model: 'rosetta/delta-model', upstream_model: 'delta-up', context_length: 4000, max_completion_tokens: 500, pricing: { prompt: '0', completion: '0' } }],
      });
      expect(put.status).toBe(200);
      expect(put.body).toEqual(expect.objectContaining({ slug: 'delta', configured: true, has_api_key: true }));
      expect(JSON.stringify(put.body)).not.toContain('delta-secret-key');
      const served = await chat({ model: 'rosetta/delta-model' });
      expect(served.status).toBe(200);
      expect(served.provider).toBe('delta');
      const providers = await adminCall(gateway, 'GET', '/admin/providers');
      expect(JSON.stringify(providers.body)).not.toContain('delta-secret-key');
      expect(providers.body.map((p: any) => p.slug)).toEqual(expect.arrayContaining(['openai', 'anthropic', 'gemini', 'alpha', 'beta', 'delta']));
    });
  });
});
