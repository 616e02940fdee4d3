/**
 * Issue 27, item 2: one price unit for people — USD per million tokens, as price pages quote them —
 * in the admin API, the providers file and the CLI; per-token prices still read where machines write
 * them; and a price no provider charges refused with the field named, instead of billing a
 * thousand-fold (docs/decisions/0022).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { adminCall, startGateway } from './support/gateway-process';
import { createTestDatabase, query } from './support/services';
import { startStack, type Stack } from './support/stack';

describe('prices in USD per million tokens', () => {
  let stack: Stack;
  const admin = (method: string, path: string, body?: unknown) => adminCall(stack.gateway, method, path, body);
  const provider = (prices: Record<string, unknown>) => ({
    protocol: 'openai',
    base_url: `${stack.sim.url}/v1`,
    api_key: 'sk-priced-000000',
    endpoints: [{ model: 'rosetta/priced-model', upstream_model: 'priced-model', context_length: 32000, max_completion_tokens: 1000, ...prices }],
  });

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('takes them in the admin API, shows them back in both units, and charges tokens × price ÷ 1,000,000 exactly', async () => {
    const put = await admin('PUT', '/admin/providers/priced', provider({ usd_per_million_tokens: { prompt: 0.15, completion: '0.6' } }));
    expect(put.status).toBe(200);
    const listed = (await admin('GET', '/admin/providers')).body.find((p: any) => p.slug === 'priced');
    expect(listed.endpoints[0]).toMatchObject({ usd_per_million_tokens: { prompt: '0.15', completion: '0.6' }, pricing: { prompt: '0.00000015', completion: '0.0000006' } });

    const client = new OpenAI({ apiKey: stack.key, baseURL: `${stack.gateway.url}/v1`, maxRetries: 0 });
    const { data, response } = await client.chat.completions.create({ model: 'rosetta/priced-model', messages: [{ role: 'user', content: 'Hello!' }] }).withResponse();
    const { prompt_tokens: input, completion_tokens: output } = data.usage!;
    const expected = (input * 0.15 + output * 0.6) / 1_000_000;
    expect(Number(response.headers.get('x-rosetta-cost-usd'))).toBeCloseTo(expected, 12);
    // "Hello!" costs a fraction of a cent, not the $1.20 the issue saw.
    expect(expected).toBeLessThan(0.001);
  });

  it("refuses the issue's mistake — a per-million figure in the per-token field — naming the field and what to write", async () => {
    const put = await admin('PUT', '/admin/providers/mistaken', provider({ pricing: { prompt: '0.1', completion: '0.4' } }));
    expect(put.status).toBe(400);
    expect(put.body.error).toMatchObject({
      type: 'invalid_request_error',
      param: 'endpoints[0].pricing.prompt',
      message: expect.stringContaining('write usd_per_million_tokens: {"prompt": 0.1}'),
    });
    expect(await query(stack.db.url, `SELECT slug FROM providers WHERE slug = 'mistaken'`)).toEqual([]);
  });

  it('refuses a per-token figure in the per-million field, a price above any provider, and both forms at once', async () => {
    const tiny = await admin('PUT', '/admin/providers/mistaken', provider({ usd_per_million_tokens: { prompt: '0.00000015', completion: 0 } }));
    expect(tiny.body.error).toMatchObject({ param: 'endpoints[0].usd_per_million_tokens.prompt', message: expect.stringContaining('was a per-token price written here?') });
    const dear = await admin('PUT', '/admin/providers/mistaken', provider({ usd_per_million_tokens: { prompt: 3, completion: 15000 } }));
    expect(dear.body.error).toMatchObject({ param: 'endpoints[0].usd_per_million_tokens.completion' });
    const both = await admin('PUT', '/admin/providers/mistaken', provider({ usd_per_million_tokens: { prompt: 3, completion: 15 }, pricing: { prompt: '0.000003', completion: '0.000015' } }));
    expect(both.body.error.message).toContain('not both');
    const none = await admin('PUT', '/admin/providers/mistaken', provider({}));
    expect(none.body.error).toMatchObject({ param: 'endpoints[0].usd_per_million_tokens' });
    expect([tiny.status, dear.status, both.status, none.status]).toEqual([400, 400, 400, 400]);
  });

  it('still reads per-token pricing, as older files and scripts write it', async () => {
    const put = await admin('PUT', '/admin/providers/per-token', provider({ pricing: { prompt: '0.000003', completion: '0.000015' } }));
    expect(put.status).toBe(200);
    const listed = (await admin('GET', '/admin/providers')).body.find((p: any) => p.slug === 'per-token');
    expect(listed.endpoints[0].usd_per_million_tokens).toEqual({ prompt: '3', completion: '15' });
  });

  it('a providers file with a price no provider charges stops the start, naming the file, the place and the fix', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rosetta-prices-')), 'providers.yaml');
    writeFileSync(file, [
      'providers:',
      '  - slug: local',
      '    protocol: openai',
      `    base_url: ${stack.sim.url}/v1`,
      '    endpoints:',
      '      - model: rosetta/local-model',
      '        upstream_model: local-model',
      '        context_length: 8000',
      '        max_completion_tokens: 1000',
      '        pricing: { prompt: "0.1", completion: "0.1" }',
    ].join('\n'));
    const db = await createTestDatabase();
    try {
      const started = startGateway({ DATABASE_URL: db.url, SIMULATOR_URL: stack.sim.url, PROVIDERS_FILE: file });
      const failure = await started.then(() => '', (error: Error) => error.message);
      expect(failure).toContain('gateway exited');
      expect(failure).toContain('PROVIDERS_FILE');
      expect(failure).toContain('providers[0].endpoints[0].pricing.prompt');
      expect(failure).toContain('usd_per_million_tokens');
    } finally {
      await db.drop();
    }
  });
});
