import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, TEST_SECRETS_KEY, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase, query } from './support/services';

const ROTATED_KEY = Buffer.alloc(32, 7).toString('base64');

/** A value as stored before secrets were bound to their row: enc:v1:, no associated data. */
function sealedV1(hexKey: string, plain: string): string {
  const key = Buffer.from(hexKey, 'hex');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `enc:v1:${createHash('sha256').update(key).digest('hex').slice(0, 8)}:${iv.toString('base64url')}:${body.toString('base64url')}`;
}

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
    expect(stored).toMatch(/^enc:v2:[0-9a-f]{8}:/);
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
    const before = await storedKey('acme');
    const rotated = await start({ SECRETS_KEY: ROTATED_KEY, SECRETS_KEY_PREVIOUS: TEST_SECRETS_KEY });
    expect(rotated.output()).toContain('provider secrets sealed under the current SECRETS_KEY');
    const after = await storedKey('acme');
    expect(after).toMatch(/^enc:v2:/);
    expect(after!.split(':')[2]).not.toBe(before!.split(':')[2]);
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

  it('binds each secret to its provider: one sealed before binding is rebound at start, one copied to another row or stored in plain text is refused', async () => {
    const upstream = { protocol: 'openai', base_url: `${sim.url}/v1`, source: 'admin' };
    const insert = (slug: string, apiKey: string) =>
      query(db.url, 'INSERT INTO providers (slug, protocol, base_url, api_key, source) VALUES ($1, $2, $3, $4, $5)', [slug, upstream.protocol, upstream.base_url, apiKey, upstream.source]);
    // A provider with an endpoint, whose key is then as the previous release stored it.
    const setup = await start({ SECRETS_KEY: ROTATED_KEY });
    expect((await adminCall(setup, 'PUT', '/admin/providers/oldformat', provider('oldformat', 'sk-placeholder'))).status).toBe(200);
    const v1 = sealedV1(TEST_SECRETS_KEY, 'sk-oldformat-222');
    await query(db.url, 'UPDATE providers SET api_key = $1 WHERE slug = $2', [v1, 'oldformat']);
    await insert('legacy', 'sk-legacy-plain');
    // ROTATED_KEY did not seal it: the v1 value stays as it was until a process with its key starts.
    const first = await start({ SECRETS_KEY: ROTATED_KEY });
    expect(await storedKey('oldformat')).toBe(v1);
    expect(first.output()).toContain('a provider secret cannot be opened');
    const migrating = await start({ SECRETS_KEY: ROTATED_KEY, SECRETS_KEY_PREVIOUS: TEST_SECRETS_KEY });
    const rebound = await storedKey('oldformat');
    expect(rebound).toMatch(/^enc:v2:/);
    const providers = await adminCall(migrating, 'GET', '/admin/providers');
    expect(providers.body.filter((p: any) => ['oldformat', 'legacy'].includes(p.slug)).map((p: any) => [p.slug, p.configured])).toEqual([
      ['legacy', false],
      ['oldformat', true],
    ]);
    expect(migrating.output()).toContain('provider secrets stored unencrypted are refused');
    expect((await callWith(migrating, 'rosetta/oldformat-model')).headers['authorization']).toBe('Bearer sk-oldformat-222');
    expect(await storedKey('legacy')).toBe('sk-legacy-plain');
    // acme's sealed key copied into another provider's row (whose base URL a writer of the table chose) does not open there.
    await insert('thief', (await storedKey('acme'))!);
    const after = await start({ SECRETS_KEY: ROTATED_KEY });
    const listed = await adminCall(after, 'GET', '/admin/providers');
    expect(listed.body.filter((p: any) => ['acme', 'thief', 'oldformat'].includes(p.slug)).map((p: any) => [p.slug, p.configured])).toEqual([
      ['acme', true],
      ['oldformat', true],
      ['thief', false],
    ]);
    expect(after.output()).toContain('for another provider');
  });
});
