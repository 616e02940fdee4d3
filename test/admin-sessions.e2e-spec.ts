import { adminCall, startGateway, TEST_ADMIN_TOKEN, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase } from './support/services';

/** Dashboard sessions end with the admin token that opened them, and all at once on request. */
describe('dashboard sessions', () => {
  let db: { url: string; drop(): Promise<void> };
  const gateways: GatewayProcess[] = [];

  const start = async (env: Record<string, string> = {}) => {
    const gateway = await startGateway({ DATABASE_URL: db.url, ...env });
    gateways.push(gateway);
    return gateway;
  };
  const signIn = async (gateway: GatewayProcess, token = TEST_ADMIN_TOKEN): Promise<string> => {
    const res = await fetch(`${gateway.url}/admin/session`, { method: 'POST', headers: { 'x-rosetta-dashboard': '1', 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    expect(res.status).toBe(200);
    return res.headers.get('set-cookie')!.split(';')[0]!;
  };
  const keysWith = async (gateway: GatewayProcess, cookie: string) => {
    const res = await fetch(`${gateway.url}/admin/keys`, { headers: { cookie } });
    return { status: res.status, message: ((await res.json()) as { error?: { message: string } }).error?.message };
  };
  const whoIs = async (gateway: GatewayProcess, cookie: string) => ((await (await fetch(`${gateway.url}/admin/session`, { headers: { cookie } })).json()) as { authenticated: boolean }).authenticated;
  const ENDED = { status: 401, message: 'Your dashboard session has ended (signed out or expired): sign in again' };

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop()));
    await db?.drop();
  });

  it('ends every session a rotated ADMIN_TOKEN opened, and keeps those of the new one', async () => {
    const before = await start();
    const cookie = await signIn(before);
    expect(await keysWith(before, cookie)).toEqual({ status: 200, message: undefined });
    const rotated = await start({ ADMIN_TOKEN: 'rat_the-new-admin-token-0123456789' });
    expect(await keysWith(rotated, cookie)).toEqual(ENDED);
    expect(await whoIs(rotated, cookie)).toBe(false);
    const fresh = await signIn(rotated, 'rat_the-new-admin-token-0123456789');
    expect(await keysWith(rotated, fresh)).toEqual({ status: 200, message: undefined });
  });

  it('"Sign out all sessions" ends every session on every replica, the caller\'s too, and is audited', async () => {
    const [a, b] = [await start(), await start()];
    // What earlier tests left (live rows, the rotated token's included) goes first.
    expect((await adminCall(a, 'DELETE', '/admin/sessions')).status).toBe(200);
    const [mine, other] = [await signIn(a), await signIn(b)];
    // A change made with a session needs the dashboard header (cross-site protection).
    expect((await fetch(`${a.url}/admin/sessions`, { method: 'DELETE', headers: { cookie: mine } })).status).toBe(403);
    expect(await keysWith(b, other)).toEqual({ status: 200, message: undefined });
    const res = await fetch(`${a.url}/admin/sessions`, { method: 'DELETE', headers: { cookie: mine, 'x-rosetta-dashboard': '1' } });
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: { signed_out: 2 } });
    expect(res.headers.get('set-cookie')).toMatch(/^rosetta_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0/);
    for (const [gateway, cookie] of [[a, mine], [b, other], [a, other]] as const) expect(await keysWith(gateway, cookie)).toEqual(ENDED);
    // A script with the bearer token may do it too (nothing left to end).
    expect(await adminCall(b, 'DELETE', '/admin/sessions')).toEqual({ status: 200, body: { signed_out: 0 } });
    const audit = await adminCall(a, 'GET', '/admin/audit?action=session.sign_out_all');
    expect(audit.body.data.slice(0, 2).map((e: any) => [e.actor, e.method, e.details])).toEqual([
      ['admin token', 'bearer', { sessions: 0 }],
      ['admin token', 'token', { sessions: 2 }],
    ]);
  });
});
