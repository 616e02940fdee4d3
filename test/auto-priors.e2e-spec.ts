import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase } from './support/services';
import { OPERATOR_KEYS } from './support/stack';

/**
 * Operator priors for rosetta/auto: a model the catalog has no profile for is routed to only on a
 * declared `router_prior` (PROVIDERS_FILE or the admin API), the explanation says which basis each
 * candidate was scored on, and a free local model does not win prompts it is expected to fail.
 */
describe('rosetta/auto and models without a catalog profile', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess;
  let key: string;
  let dir: string;

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'rosetta-priors-'));
    const file = join(dir, 'providers.yaml');
    // A local OpenAI-compatible server (the simulator) with two free models: one declares a modest
    // prior, the other none.
    writeFileSync(
      file,
      `providers:
  - slug: local
    protocol: openai
    base_url: ${sim.url}/v1
    api_key_env: LOCAL_KEY
    endpoints:
      - { model: rosetta/local-small, upstream_model: local-small, context_length: 32000, max_completion_tokens: 4000,
          pricing: { prompt: "0", completion: "0" }, router_prior: { default: 0.6, coding: 0.55 } }
      - { model: rosetta/local-unknown, upstream_model: local-unknown, context_length: 32000, max_completion_tokens: 4000,
          pricing: { prompt: "0", completion: "0" } }
`,
    );
    gateway = await startGateway({
      DATABASE_URL: db.url,
      PROVIDERS_FILE: file,
      LOCAL_KEY: 'local-key-000000',
      OPENAI_BASE_URL: `${sim.url}/v1`,
      ANTHROPIC_BASE_URL: sim.url,
      GEMINI_BASE_URL: sim.url,
      ...OPERATOR_KEYS,
    });
    ({ key } = await createKey(gateway, 'enterprise'));
  });

  afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const route = async (content: string, extra: Record<string, unknown> = {}) => {
    const res = await fetch(`${gateway.url}/v1/route`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rosetta/auto', messages: [{ role: 'user', content }], ...extra }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as any;
  };
  const candidate = (body: any, id: string) => body.decision.candidates.find((c: any) => c.id === id);
  const HARD = 'Implement a lock-free multi-producer multi-consumer queue in C++ with std::atomic and explain which memory orderings each operation needs.';

  it('scores a model by its declared prior and leaves the one without a prior out, saying so', async () => {
    const body = await route('Hello!');
    expect(candidate(body, 'rosetta/local-small')).toEqual(expect.objectContaining({ basis: 'prior', source: 'prior (providers file) default', costUsd: 0 }));
    expect(candidate(body, 'rosetta/gpt-4o-mini')).toEqual(expect.objectContaining({ basis: 'profile', source: expect.stringMatching(/^profile /) }));
    expect(candidate(body, 'rosetta/local-unknown')).toBeUndefined();
    expect(body.filters).toEqual(expect.arrayContaining([{ model: 'rosetta/local-unknown', eligible: [], excluded_by: 'router_prior' }]));
  });

  it('a free model with a modest prior takes small talk, but not hard work at any knob from 0 to the default', async () => {
    expect((await route('Thanks!', { route_knob: 0.2 })).chosen).toBe('rosetta/local-small');
    for (const route_knob of [0, 0.2, 0.4, undefined]) {
      const body = await route(HARD, route_knob === undefined ? {} : { route_knob });
      expect(body.chosen).not.toBe('rosetta/local-small');
      expect(candidate(body, 'rosetta/local-small')).toEqual(expect.objectContaining({ capable: false, source: 'prior (providers file) coding' }));
    }
  });

  it('serves through the local model and says on what basis in x-rosetta-route', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const { data, response } = await openai.chat.completions.create({ model: 'rosetta/auto', messages: [{ role: 'user', content: 'Thanks!' }] }).withResponse();
    expect(data.model).toBe('rosetta/local-small');
    expect(response.headers.get('x-rosetta-route')).toMatch(/^model=rosetta\/local-small; mode=single; knob=[\d.]+; basis=prior; difficulty=-[\d.]+; /);
    expect(sim.requests().at(-1)?.body).toEqual(expect.objectContaining({ model: 'local-small' }));
  });

  it('takes a prior from the admin API, refuses a bad one naming the field, and a null prior takes the model out again', async () => {
    const put = (router_prior: unknown) => adminCall(gateway, 'PUT', '/admin/models/rosetta/local-unknown', { display_name: 'Local unknown', author: 'local', router_prior });
    const set = await put({ default: 0.9, coding: 0.97 });
    expect(set.status).toBe(200);
    expect(set.body.router_prior).toEqual({ default: 0.9, coding: 0.97, source: 'admin' });
    expect(candidate(await route(HARD), 'rosetta/local-unknown')).toEqual(expect.objectContaining({ basis: 'prior', source: 'prior (admin API) coding' }));
    // A free model the operator says is as good as the best is capable of hard work too, and cheapest.
    expect((await route(HARD)).chosen).toBe('rosetta/local-unknown');

    const tooHigh = await put({ default: 1.5 });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body.error).toEqual(expect.objectContaining({ type: 'invalid_request_error', param: 'router_prior.default' }));
    const unknown = await put({ default: 0.5, cooking: 0.3 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toEqual(expect.objectContaining({ param: 'router_prior.cooking', message: expect.stringContaining('not a category') }));

    const cleared = await put(null);
    expect(cleared.body.router_prior).toBeNull();
    expect(candidate(await route(HARD), 'rosetta/local-unknown')).toBeUndefined();
  });
});
