import { TEST_ADMIN_TOKEN } from './support/gateway-process';
import { rawRequest } from './support/raw-http';
import { startStack, type Stack } from './support/stack';

/** ADMIN_PORT: the admin surface on a port of its own, so an ingress can expose only the data plane. */
describe('ADMIN_PORT', () => {
  let stack: Stack;
  let admin: string;

  beforeAll(async () => {
    stack = await startStack({ ADMIN_PORT: '0', ADMIN_HOST: '127.0.0.1' });
    admin = stack.gateway.adminUrl;
    expect(admin).not.toBe(stack.gateway.url);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const errorType = (body: string): unknown => {
    try {
      return (JSON.parse(body) as { error?: { type?: unknown } }).error?.type;
    } catch {
      return body.slice(0, 40);
    }
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('serves the admin API, metrics and the dashboard only on the admin port', async () => {
    expect((await fetch(`${admin}/admin/keys`, { headers: bearer(TEST_ADMIN_TOKEN) })).status).toBe(200);
    expect((await fetch(`${admin}/metrics`, { headers: bearer(TEST_ADMIN_TOKEN) })).status).toBe(200);
    const hidden = await fetch(`${stack.gateway.url}/admin/keys`, { headers: bearer(TEST_ADMIN_TOKEN) });
    expect(hidden.status).toBe(404);
    const adminPort = Number(new URL(admin).port);
    expect(((await hidden.json()) as any).error).toEqual({
      message: `Unknown route: GET /admin/keys; the admin surface is served on ADMIN_PORT (${adminPort}), not on the data-plane port PORT (${stack.gateway.port})`,
      type: 'not_found_error',
      code: null,
      param: null,
    });
    expect((await fetch(`${stack.gateway.url}/metrics`, { headers: bearer(TEST_ADMIN_TOKEN) })).status).toBe(404);
    // Express matches routes case-insensitively: other spellings must not reach it on this port.
    const page = await fetch(`${admin}/dashboard`);
    expect({ status: page.status, type: page.headers.get('content-type') }).toEqual({ status: 200, type: 'text/html; charset=utf-8' });
    for (const path of ['/dashboard', '/Dashboard/keys', '/admin/session', '/METRICS', '/Metrics/', '/ADMIN/keys', '/%61dmin/keys', '/Docs', '/OPENAPI.JSON']) {
      expect({ path, status: (await fetch(`${stack.gateway.url}${path}`, { headers: bearer(TEST_ADMIN_TOKEN) })).status }).toEqual({ path, status: 404 });
    }
  });

  it('refuses request targets whose path Express would read differently, on both ports', async () => {
    const auth = `Authorization: Bearer ${TEST_ADMIN_TOKEN}`;
    const host = `Host: 127.0.0.1`;
    const targets = [
      'GET http://x/admin/keys',
      'GET http://x/metrics',
      'GET http://x/dashboard',
      'GET http://x/openapi.json',
      'GET https://x:1/admin/keys?limit=1',
      'GET /metrics#x',
      'GET /admin/keys#/v1/models',
      'GET *',
    ];
    const answers = [];
    for (const base of [stack.gateway.url, admin]) {
      for (const line of targets) {
        const answer = await rawRequest(base, `${line} HTTP/1.1\r\n${host}\r\n${auth}`);
        answers.push({ base, line, status: answer.status, type: errorType(answer.body) });
      }
      const signIn = await rawRequest(base, `POST http://x/admin/session HTTP/1.1\r\n${host}\r\nContent-Type: application/json\r\nx-rosetta-dashboard: 1\r\nContent-Length: 9`, '{"token":');
      answers.push({ base, line: 'POST session', status: signIn.status, type: errorType(signIn.body) });
    }
    expect(answers).toEqual([stack.gateway.url, admin].flatMap((base) => [...targets, 'POST session'].map((line) => ({ base, line, status: 400, type: 'invalid_request_error' }))));
    // The same paths in origin form: the data-plane port still hides them, the admin port serves them.
    expect((await rawRequest(stack.gateway.url, `GET /admin/keys HTTP/1.1\r\n${host}\r\n${auth}`)).status).toBe(404);
    expect((await rawRequest(admin, `GET /admin/keys HTTP/1.1\r\n${host}\r\n${auth}`)).status).toBe(200);
  });

  it("tells a signed-in dashboard where the data plane is: its port, the host left to the page when it listens on every interface", async () => {
    const signIn = await fetch(`${admin}/admin/session`, { method: 'POST', headers: { 'x-rosetta-dashboard': '1', 'content-type': 'application/json' }, body: JSON.stringify({ token: TEST_ADMIN_TOKEN }) });
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    expect(((await signIn.json()) as any).data_plane).toEqual({ same_origin: false, host: '127.0.0.1', port: stack.gateway.port });
    expect(((await (await fetch(`${admin}/admin/session`, { headers: { cookie } })).json()) as any).data_plane).toEqual({ same_origin: false, host: '127.0.0.1', port: stack.gateway.port });
    // Not to a stranger.
    expect(((await (await fetch(`${admin}/admin/session`)).json()) as any).data_plane).toBeUndefined();
  });

  it('serves the data plane only on the main port, and the probes on both', async () => {
    expect((await fetch(`${stack.gateway.url}/v1/models`, { headers: bearer(stack.key) })).status).toBe(200);
    const chat = await fetch(`${admin}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...bearer(stack.key), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(chat.status).toBe(404);
    expect(((await chat.json()) as any).error.message).toBe(
      `Unknown route: POST /v1/chat/completions; this is the admin port, ADMIN_PORT (${new URL(admin).port}): the data plane is on PORT (${stack.gateway.port})`,
    );
    const messages = await fetch(`${admin}/v1/messages`, { method: 'POST', headers: { 'x-api-key': stack.key, 'content-type': 'application/json' }, body: '{}' });
    expect({ status: messages.status, body: await messages.json() }).toEqual({
      status: 404,
      body: {
        type: 'error',
        error: { type: 'not_found_error', message: `Unknown route: POST /v1/messages; this is the admin port, ADMIN_PORT (${new URL(admin).port}): the data plane is on PORT (${stack.gateway.port})` },
        request_id: messages.headers.get('x-request-id'),
      },
    });
    for (const base of [admin, stack.gateway.url]) expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });
});
