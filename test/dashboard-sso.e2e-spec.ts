import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from './support/browser';
import { adminCall } from './support/gateway-process';
import { startStack, type Stack } from './support/stack';

const CLIENT = { id: 'rosetta-dashboard', secret: 'rosetta-dashboard-secret-0123456789' };

interface IdentityProvider {
  issuer: string;
  /** Registers the gateway's callback once its port is known. */
  register(redirectUri: string): Promise<void>;
  stop(): void;
}

/** `oidc-provider` in a child process (it is an ES module; Jest loads CommonJS): test/support/oidc-idp.mjs. */
async function startIdentityProvider(): Promise<IdentityProvider> {
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'support', 'oidc-idp.mjs')], { stdio: ['pipe', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const next = (): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      lines.once('line', (line) => resolve(JSON.parse(line) as Record<string, unknown>));
      child.once('exit', (code) => reject(new Error(`identity provider exited (${code}): ${errors}`)));
    });
  const { issuer } = (await next()) as { issuer: string };
  return {
    issuer,
    register: async (redirectUri) => {
      child.stdin!.write(`${JSON.stringify({ redirect_uri: redirectUri })}\n`);
      await next();
    },
    stop: () => child.kill(),
  };
}

/**
 * Single sign-on against a real OpenID Connect provider on loopback, its login and consent pages
 * driven by the browser: a member of the admin group signs in as admin, a member of the viewer
 * group as a viewer who sees everything and changes nothing, anyone else is turned away in words.
 * The gateway is reached as localhost and the provider as 127.0.0.1: two sites, as in real life,
 * so the way back from the provider is a cross-site navigation.
 */
describe('the dashboard with OIDC single sign-on', () => {
  let idp: IdentityProvider;
  let stack: Stack;
  let chromium: TestBrowser;
  const dashboard = (): string => `http://localhost:${stack.gateway.port}/dashboard`;

  beforeAll(async () => {
    idp = await startIdentityProvider();
    [stack, chromium] = await Promise.all([
      startStack({
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: CLIENT.id,
        OIDC_CLIENT_SECRET: CLIENT.secret,
        OIDC_ADMIN_GROUPS: 'rosetta-admins, platform',
        OIDC_VIEWER_GROUPS: 'rosetta-viewers',
        OIDC_SCOPES: 'openid profile email groups',
      }),
      launchBrowser(),
    ]);
    await idp.register(`http://localhost:${stack.gateway.port}/admin/session/sso/callback`);
  }, 120_000);

  afterAll(async () => {
    await chromium?.close();
    await stack?.stop();
    idp?.stop();
  });

  /** From the sign-in page through the provider's own login and consent pages, back to the dashboard. */
  async function signInWithSso(login: string, shots?: string): Promise<Page> {
    const page = await (await chromium.context()).newPage();
    await page.goto(dashboard());
    await page.getByRole('button', { name: 'Sign in with SSO' }).click();
    await page.waitForURL((u) => u.href.startsWith(idp.issuer));
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    if (shots) await screenshot(page, `${shots}-provider-login`);
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((u) => u.href.startsWith(dashboard()));
    return page;
  }

  it('signs a member of OIDC_ADMIN_GROUPS in as admin, through the provider, with a session cookie', async () => {
    const page = await signInWithSso('alice', 'sso');
    await page.getByRole('heading', { name: 'Keys' }).waitFor();
    await expect(page.locator('.who').textContent()).resolves.toBe('alice@example.comAdminSign outSign out all sessions');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('made-by-alice');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    const cookies = (await page.context().cookies()).filter((c) => c.name.startsWith('rosetta'));
    expect(cookies.map((c) => ({ name: c.name, httpOnly: c.httpOnly, sameSite: c.sameSite }))).toEqual([{ name: 'rosetta_session', httpOnly: true, sameSite: 'Strict' }]);
    const audit = await adminCall(stack.gateway, 'GET', '/admin/audit?actor=alice');
    expect(audit.body.data.map((e: any) => [e.action, e.actor, e.role, e.method])).toEqual([
      ['key.create', 'alice@example.com', 'admin', 'oidc'],
      ['session.sign_in', 'alice@example.com', 'admin', 'oidc'],
    ]);
    expect(audit.body.data[1].details).toMatchObject({ groups: ['rosetta-admins', 'staff'], subject: 'alice' });
    await page.context().close();
  });

  it('signs a member of OIDC_VIEWER_GROUPS in as a viewer, who sees every page and can change nothing', async () => {
    const page = await signInWithSso('victor');
    await page.getByRole('heading', { name: 'Keys' }).waitFor();
    await expect(page.locator('.role').textContent()).resolves.toBe('Viewer (read only)');
    await page.locator('tr', { has: page.getByText('made-by-alice', { exact: true }) }).waitFor();
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    await screenshot(page, 'viewer-keys');
    for (const name of ['Teams', 'Plans', 'Usage', 'Requests', 'Providers', 'Router', 'Audit log']) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { name, level: 1 }).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
    }
    // The page offers no change; the API refuses one all the same.
    const refused = await page.evaluate(async () => {
      const res = await fetch('/admin/keys', { method: 'POST', headers: { 'x-rosetta-dashboard': '1', 'content-type': 'application/json' }, body: JSON.stringify({ name: 'sneaky', plan: 'free' }) });
      return { status: res.status, body: await res.json() };
    });
    expect(refused).toMatchObject({ status: 403, body: { error: { type: 'permission_error', message: 'Signed in as victor@example.com with the viewer role: viewers can look at everything but change nothing' } } });
    // Reading the ledger changes nothing either: the viewer sees the recent requests.
    const requests = await page.evaluate(async () => (await fetch('/admin/requests?limit=5', { headers: { 'x-rosetta-dashboard': '1' } })).status);
    expect(requests).toBe(200);
    // Explaining a route changes nothing: a viewer may.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Router' }).click();
    await page.getByRole('button', { name: 'Route' }).click();
    await page.getByRole('region', { name: 'Routing decision' }).waitFor();
    const keys = await adminCall(stack.gateway, 'GET', '/admin/keys');
    expect(keys.body.map((k: any) => k.name)).not.toContain('sneaky');
    await page.context().close();
  });

  it('turns away a user in none of the groups, saying which groups it saw', async () => {
    const page = await signInWithSso('mallory');
    const notice = page.getByRole('status').filter({ hasText: 'mallory' });
    await notice.waitFor();
    await expect(notice.textContent()).resolves.toBe('mallory@example.com is in none of the groups allowed in (OIDC_ADMIN_GROUPS, OIDC_VIEWER_GROUPS); groups seen: marketing');
    await page.getByRole('button', { name: 'Sign in with SSO' }).waitFor();
    expect(page.url()).toBe(`${dashboard()}/`);
    expect((await page.context().cookies()).filter((c) => c.name === 'rosetta_session')).toEqual([]);
    await screenshot(page, 'sso-refused');
    const audit = await adminCall(stack.gateway, 'GET', '/admin/audit?action=session.sign_in_refused');
    expect(audit.body.data).toEqual([expect.objectContaining({ actor: 'mallory@example.com', method: 'oidc', details: { reason: 'no role', groups: ['marketing'] } })]);
    await page.context().close();
  });

  it('refuses a callback that does not belong to a sign-in this browser started', async () => {
    const res = await fetch(`http://localhost:${stack.gateway.port}/admin/session/sso/callback?code=stolen&state=whatever`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(decodeURIComponent(res.headers.get('location')!)).toBe('/dashboard/?sso_error=This sign-in link has expired or was opened in another browser: sign in with SSO again');
  });
});
