import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, TEST_SECRETS_KEY, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase, query } from './support/services';

const ROTATED_KEY = Buffer.alloc(32, 7).toString('base64');

/** Provider secrets added through the admin API are encrypted at rest, and the key can be rotated. */
describe('provider secrets at rest', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  const gateways: GatewayProcess[] = [];

  const start = async (env: Record<string, string | undefined> = {}) => {
    const gateway = await startGateway({ DATABASE_URL: db.url, ...env });
    gateways.push(gateway);
    return gateway;
  };
  const storedKey = async (slug: string) => (await query<{ api_key: string | null }>(db.url, 'SELECT api_key FROM providers WHERE slug = $1', [slug]))[0]?.api_key;
  const provider = (slug: string, apiKey: string) => ({
    protocol: 'openai',
    base_url: `${sim.url}/v1`,
    api_key: apiKey,
    endpoints: [{ model: `rosetta/${slug}-model`, upstream_model: 'gpt-4o-mini', context_length: 8000, max_completion_tokens: 1000, pricing: { prompt: '0', completion: '0' } }],
  });
  const callWith = async (gateway: GatewayProcess, model: string) => {
    const { key } = await createKey(gateway, 'enterprise');
    const marker = `secret-${Math.random().toString(36).slice(2)}`;
    const res = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: marker }] }),
    });
    expect(res.status).toBe(200);
    return sim.requests().filter((r) => JSON.stringify(r.body).includes(marker)).at(-1)!;
  };

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop()));
    await sim?.close();
    await db?.drop();
  });

  it('stores an admin-added api_key sealed, never returns it, and sends it upstream', async () => {
    const gateway = await start();
    const put = await adminCall(gateway, 'PUT', '/admin/providers/acme', provider('acme', 'sk-acme-secret-000111'));
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain('sk-acme-secret-000111');
    const stored = await storedKey('acme');
    expect(stored).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(stored).not.toContain('sk-acme-secret-000111');
    const listed = await adminCall(gateway, 'GET', '/admin/providers');
    expect(JSON.stringify(listed.body)).not.toContain('sk-acme-secret-000111');
    expect(listed.body.find((p: any) => p.slug === 'acme')).toMatchObject({ configured: true, has_api_key: true });
    const upstream = await callWith(gateway, 'rosetta/acme-model');
    expect(upstream.headers['authorization']).toBe('Bearer sk-acme-secret-000111');
  });

  it('refuses to store an api_key on PostgreSQL without SECRETS_KEY, naming it, and suggests api_key_env', async () => {
    const gateway = await start({ SECRETS_KEY: undefined });
    const put = await adminCall(gateway, 'PUT', '/admin/providers/plain', provider('plain', 'sk-would-be-plain'));
    expect(put.status).toBe(400);
    expect(put.body.error).toMatchObject({ param: 'api_key', message: expect.stringContaining('SECRETS_KEY') });
    expect(put.body.error.message).toContain('api_key_env');
    expect(await storedKey('plain')).toBeUndefined();
  });

  it('on rotation, opens secrets under SECRETS_KEY_PREVIOUS and seals them again under the new key at start', async () => {
    // A row from before encryption existed, in plain text, beside the sealed one from the first test.
    await query(db.url, "INSERT INTO providers (slug, protocol, base_url, api_key, source) VALUES ('legacy', 'openai', $1, 'sk-legacy-plain', 'admin')", [`${sim.url}/v1`]);
    const before = await storedKey('acme');
    const rotated = await start({ SECRETS_KEY: ROTATED_KEY, SECRETS_KEY_PREVIOUS: TEST_SECRETS_KEY });
    expect(rotated.output()).toContain('provider secrets sealed under the current SECRETS_KEY');
    const after = await storedKey('acme');
    expect(after).toMatch(/^enc:v1:/);
    expect(after!.split(':')[2]).not.toBe(before!.split(':')[2]);
    expect(await storedKey('legacy')).toMatch(/^enc:v1:/);
    expect((await callWith(rotated, 'rosetta/acme-model')).headers['authorization']).toBe('Bearer sk-acme-secret-000111');
    // With the old key dropped, the new one alone opens everything.
    const next = await start({ SECRETS_KEY: ROTATED_KEY });
    expect((await callWith(next, 'rosetta/acme-model')).headers['authorization']).toBe('Bearer sk-acme-secret-000111');
    // A process without the sealing key cannot open it: the provider is unconfigured, and it says why.
    const stranger = await start({ SECRETS_KEY: TEST_SECRETS_KEY });
    expect(stranger.output()).toContain('a provider secret cannot be opened');
    const models = await adminCall(stranger, 'GET', '/admin/providers');
    expect(models.body.find((p: any) => p.slug === 'acme')).toMatchObject({ configured: false });
  });
});
