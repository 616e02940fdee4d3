import Redis from 'ioredis';
import { adminCall, startGateway, TEST_ADMIN_TOKEN, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase, TEST_REDIS_URL } from './support/services';

/**
 * Guessing the admin token (issue 26): failed sign-ins and failed bearer tokens are counted per
 * client address across replicas (Redis), and X-Forwarded-For is believed only from
 * TRUSTED_PROXIES — so neither a second replica nor a made-up header buys a guesser more tries.
 */
describe('admin authentication throttle across replicas', () => {
  let db: { url: string; drop(): Promise<void> };
  const started: GatewayProcess[] = [];
  const redis = new Redis(TEST_REDIS_URL);
  const forget = async (): Promise<void> => {
    const keys = await redis.keys('rosetta:admin-auth-failures:*');
    if (keys.length > 0) await redis.del(...keys);
  };

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  beforeEach(forget);

  afterAll(async () => {
    await Promise.all(started.map((g) => g.stop()));
    await forget();
    redis.disconnect();
    await db.drop();
  });

  async function replicas(env: Record<string, string> = {}): Promise<[GatewayProcess, GatewayProcess]> {
    const pair = await Promise.all([0, 1].map(() => startGateway({ DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, ...env })));
    started.push(...pair);
    return pair as [GatewayProcess, GatewayProcess];
  }

  const signIn = (gateway: GatewayProcess, token: string, forwardedFor: string) =>
    fetch(`${gateway.url}/admin/session`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-rosetta-dashboard': '1', 'x-forwarded-for': forwardedFor }, body: JSON.stringify({ token }) });

  it('counts failed sign-ins and bearer tokens of one address on every replica, whatever X-Forwarded-For says', async () => {
    const [a, b] = await replicas();
    for (let i = 0; i < 5; i++) expect((await signIn(i % 2 ? a : b, 'wrong-token-000000', `203.0.113.${i}`)).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await adminCall(i % 2 ? a : b, 'GET', '/admin/keys', undefined, 'wrong-token-000000')).status).toBe(401);
    const refused = await adminCall(a, 'GET', '/admin/keys', undefined, 'wrong-token-000000');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/^Too many failed admin token attempts from this address: try again in \d+ s$/);
    expect((await signIn(b, TEST_ADMIN_TOKEN, '198.51.100.7')).status).toBe(429);
    await forget();
    const audit = await adminCall(b, 'GET', '/admin/audit?action=auth&limit=10');
    expect(audit.body.data.map((e: { action: string; ip: string }) => [e.action, e.ip])).toEqual(Array.from({ length: 5 }, () => ['auth.bearer_refused', '127.0.0.1']));
  });

  it('believes X-Forwarded-For from a trusted proxy: each client behind it is counted on its own and audited by its address', async () => {
    const [a] = await replicas({ TRUSTED_PROXIES: '127.0.0.0/8' });
    for (let i = 0; i < 10; i++) expect((await signIn(a, 'wrong-token-000000', '203.0.113.9, 127.0.0.1')).status).toBe(401);
    expect((await signIn(a, 'wrong-token-000000', '203.0.113.9')).status).toBe(429);
    const other = await signIn(a, TEST_ADMIN_TOKEN, '198.51.100.7');
    expect(other.status).toBe(200);
    const audit = await adminCall(a, 'GET', '/admin/audit?action=session&limit=50');
    const entries = (audit.body.data as Array<{ action: string; ip: string }>).map((e) => [e.action, e.ip]);
    expect(entries).toContainEqual(['session.sign_in', '198.51.100.7 (via 127.0.0.1)']);
    expect(entries.filter(([action]) => action === 'session.sign_in_refused')).toContainEqual(['session.sign_in_refused', '203.0.113.9 (via 127.0.0.1)']);
  });

  it('refuses a TRUSTED_PROXIES entry that is no address, naming the variable', async () => {
    await expect(startGateway({ DATABASE_URL: db.url, TRUSTED_PROXIES: 'proxy.internal' })).rejects.toThrow(/TRUSTED_PROXIES.*'proxy\.internal' is not an IP address or CIDR range/);
  });
});
