import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { ApiKeyRecord, KeyCacheService } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { ClientAbortedError } from '@rosetta/routing';
import type { LimitState, RateLimitService } from '@rosetta/limits';
import { TracingService, type AppLogger, type RosettaConfig } from '@rosetta/platform';
import type { DataPlaneHandlers, Handler } from './data-plane-handlers.service';
import { DATA_PLANE_ROUTES, matchDataPlaneRoute, type HandlerName } from './data-plane-routes';
import { DataPlane } from './data-plane.service';

describe('matchDataPlaneRoute', () => {
  it('matches every route of the table by its own pattern', () => {
    for (const route of DATA_PLANE_ROUTES) {
      const path = route.pattern.replace(/\{[a-z]+\}$/, 'rosetta/gpt-4o:generateContent');
      expect(matchDataPlaneRoute(route.method, path)?.route).toBe(route);
    }
  });

  it("matches as Express's defaults did: any letter case of the fixed part, one trailing slash", () => {
    expect(matchDataPlaneRoute('POST', '/V1/Chat/Completions/')?.route.handler).toBe('chat');
    expect(matchDataPlaneRoute('GET', '/v1/models/')?.route.handler).toBe('models');
    expect(matchDataPlaneRoute('POST', '/V1BETA/models/rosetta/Gemini-2.5-Flash:generateContent')).toMatchObject({
      route: { handler: 'model_call' },
      tail: 'rosetta/Gemini-2.5-Flash:generateContent',
    });
  });

  it('gives a wildcard route the raw rest of the path, and no route for an empty rest', () => {
    expect(matchDataPlaneRoute('GET', '/v1/models/rosetta%2Fgpt-4o')?.tail).toBe('rosetta%2Fgpt-4o');
    expect(matchDataPlaneRoute('GET', '/v1beta/models/')?.route.handler).toBe('list_models');
  });

  it('serves HEAD as GET and leaves other methods and paths to Nest', () => {
    expect(matchDataPlaneRoute('HEAD', '/v1/models')?.route.handler).toBe('models');
    expect(matchDataPlaneRoute('GET', '/v1/chat/completions')).toBeUndefined();
    expect(matchDataPlaneRoute('DELETE', '/v1/models/x')).toBeUndefined();
    expect(matchDataPlaneRoute('POST', '/v1/chat/completions/extra')).toBeUndefined();
    expect(matchDataPlaneRoute('GET', '/admin/keys')).toBeUndefined();
    expect(matchDataPlaneRoute('POST', '//v1/chat/completions')).toBeUndefined();
  });
});

const KEY = { id: 'k1', name: 'test', plan: 'pro', teamId: null, models: null } as unknown as ApiKeyRecord;
const logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined, isLevelEnabled: () => false } as unknown as AppLogger;

interface FakeOptions {
  rpmRefused?: boolean;
  /** A stage that fails on its own (the key store or the limiter unreachable, say). */
  broken?: 'key' | 'limits';
  handlers?: Partial<Record<HandlerName, Handler>>;
  bodyLimitBytes?: number;
}

/** A data plane with fakes for the key cache, the limiter and the handlers, on a loopback server. */
async function dataPlane(options: FakeOptions = {}) {
  const stages: string[] = [];
  const errors: unknown[] = [];
  const keys = {
    check: async (presented: string) => {
      stages.push('key');
      if (options.broken === 'key') throw new Error('connect ECONNREFUSED 10.0.0.5:5432 (password=hunter2)');
      return presented === 'good' ? { ok: true, key: KEY } : { ok: false, reason: 'invalid' };
    },
  } as unknown as KeyCacheService;
  const requests = { allowed: !options.rpmRefused, used: 1, remaining: 9, resetMs: 0, windowResetMs: 60_000, limit: 10 };
  const limits = {
    countRequest: async (key: ApiKeyRecord): Promise<LimitState> => {
      stages.push('limits');
      if (options.broken === 'limits') throw new TypeError("Cannot read properties of undefined (reading 'evalsha')");
      return { plan: key.plan, requests };
    },
    admitRequest: (state: LimitState): LimitState => {
      if (!state.requests?.allowed) throw new GatewayError('rate_limit_error', 'Rate limit exceeded: 10 requests per minute', { retryAfterMs: 1_000 });
      return state;
    },
    headers: () => ({ 'x-ratelimit-limit-requests': '10' }),
  } as unknown as RateLimitService;
  const handler: Handler = (req, _res, tail) => {
    stages.push('handler');
    return { echoed: req.body ?? null, tail, key: req.apiKey?.id };
  };
  const byName = Object.fromEntries(DATA_PLANE_ROUTES.map((r) => [r.handler, options.handlers?.[r.handler] ?? handler]));
  const config = { bodyLimitBytes: options.bodyLimitBytes ?? 1_000 } as RosettaConfig;
  const log = { ...logger, error: (entry: unknown) => void errors.push(entry) } as unknown as AppLogger;
  const plane = new DataPlane({ byName } as unknown as DataPlaneHandlers, keys, limits, log, config, TracingService.off());
  const server: Server = createServer((req, res) => {
    if (!plane.handle(req, res)) {
      stages.push('nest');
      res.statusCode = 404;
      res.end('nest');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { stages, errors, base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('DataPlane (the stage chain)', () => {
  it('runs key, body, limits and the handler in that order and sends what the handler returns', async () => {
    const plane = await dataPlane();
    try {
      const res = await fetch(`${plane.base}/v1/key`, { headers: { authorization: 'Bearer good' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ echoed: null, tail: '', key: 'k1' });
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
      expect(res.headers.get('x-ratelimit-limit-requests')).toBe('10');
      expect(plane.stages).toEqual(['key', 'limits', 'handler']);
    } finally {
      await plane.close();
    }
  });

  it.each([
    ['POST', '/v1/route', 'authorization', 'Bearer good'],
    ['POST', '/v1/messages/count_tokens', 'x-api-key', 'good'],
    ['GET', '/v1/models', 'authorization', 'Bearer good'],
  ])('counts %s %s up front: it calls no upstream', async (method, path, header, value) => {
    const plane = await dataPlane();
    try {
      const res = await fetch(`${plane.base}${path}`, { method, headers: { [header]: value }, ...(method === 'POST' ? { body: '{}' } : {}) });
      expect(res.status).toBe(200);
      expect(plane.stages).toEqual(['key', 'limits', 'handler']);
    } finally {
      await plane.close();
    }
  });

  it("leaves a route that calls an upstream to count in its admission, and counts it after a handler that did not", async () => {
    const admitting: Handler = (req) => {
      req.requestCount!.state = { plan: 'pro', requests: null };
      return { admitted: true };
    };
    const plane = await dataPlane({ handlers: { chat: admitting } });
    try {
      const admitted = await fetch(`${plane.base}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer good' }, body: '{"a":1}' });
      expect({ status: admitted.status, body: await admitted.json() }).toEqual({ status: 200, body: { admitted: true } });
      expect(plane.stages).toEqual(['key']);
      const counted = await fetch(`${plane.base}/v1beta/models/rosetta/m:countTokens`, { method: 'POST', headers: { 'x-goog-api-key': 'good' }, body: '{}' });
      expect(counted.status).toBe(200);
      expect(counted.headers.get('x-ratelimit-limit-requests')).toBe('10');
      expect(plane.stages).toEqual(['key', 'key', 'handler', 'limits']);
    } finally {
      await plane.close();
    }
  });

  it('counts a request that fails before its admission, with the headers, and answers the 429 over the limit', async () => {
    const invalid: Handler = () => {
      throw GatewayError.invalidRequest('bad field', 'field');
    };
    for (const rpmRefused of [false, true]) {
      const plane = await dataPlane({ rpmRefused, handlers: { chat: invalid } });
      try {
        const res = await fetch(`${plane.base}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer good' }, body: '{}' });
        expect(res.status).toBe(rpmRefused ? 429 : 400);
        if (!rpmRefused) expect(res.headers.get('x-ratelimit-limit-requests')).toBe('10');
        expect(plane.stages).toEqual(['key', 'limits']);
      } finally {
        await plane.close();
      }
    }
  });

  it("looks at the key before the body: a bad body is refused in the route's dialect only for a good key", async () => {
    const plane = await dataPlane();
    try {
      const res = await fetch(`${plane.base}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'good' }, body: '{"a":' });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(plane.stages).toEqual(['key']);
      const stranger = await fetch(`${plane.base}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'bad' }, body: '{"a":' });
      expect(stranger.status).toBe(401);
      expect(plane.stages).toEqual(['key', 'key']);
    } finally {
      await plane.close();
    }
  });

  it('answers a request without a valid key 401 while its body is still being uploaded', async () => {
    const plane = await dataPlane({ bodyLimitBytes: 10 * 1024 * 1024 });
    try {
      for (const key of ['', 'x-api-key: bad\r\n']) {
        const head = `POST /v1/messages HTTP/1.1\r\nHost: x\r\n${key}Content-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n`;
        // A tenth of the declared body: the answer comes though the client has not finished.
        const status = await firstStatusLine(plane.base, head + `{"messages":"${'x'.repeat(1024 * 1024)}`);
        expect(status).toBe('HTTP/1.1 401 Unauthorized');
      }
      expect(plane.stages).toEqual(['key']);
    } finally {
      await plane.close();
    }
  });

  it("looks for a Gemini route's key where Google's clients send it, and answers 401 in Gemini's envelope", async () => {
    const plane = await dataPlane();
    try {
      const ok = await fetch(`${plane.base}/v1beta/models?key=good`);
      expect(ok.status).toBe(200);
      const missing = await fetch(`${plane.base}/v1/models?key=good`);
      expect(missing.status).toBe(401);
      const refused = await fetch(`${plane.base}/v1beta/models`, { headers: { 'x-goog-api-key': 'bad' } });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
    } finally {
      await plane.close();
    }
  });

  it('stops at the request limit: the handler never runs', async () => {
    const plane = await dataPlane({ rpmRefused: true });
    try {
      const res = await fetch(`${plane.base}/v1/key`, { headers: { authorization: 'Bearer good' } });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(plane.stages).toEqual(['key', 'limits']);
    } finally {
      await plane.close();
    }
  });

  it("renders a handler's failure in the route's dialect, and leaves other paths to Nest", async () => {
    const failing: Handler = () => {
      throw GatewayError.invalidRequest('bad field', 'field');
    };
    const plane = await dataPlane({ handlers: { count_tokens: failing } });
    try {
      const res = await fetch(`${plane.base}/v1/messages/count_tokens`, { method: 'POST', headers: { 'x-api-key': 'good' }, body: '{}' });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('bad field') } });
      const other = await fetch(`${plane.base}/admin/keys`);
      expect(await other.text()).toBe('nest');
    } finally {
      await plane.close();
    }
  });
});

describe('DataPlane: each stage failing on its own', () => {
  /** Runs `check` against a fresh data plane, closing it whatever happens. */
  async function withPlane(options: FakeOptions, check: (plane: Awaited<ReturnType<typeof dataPlane>>) => Promise<void>): Promise<void> {
    const plane = await dataPlane(options);
    try {
      await check(plane);
    } finally {
      await plane.close();
    }
  }

  it('refuses a request with no key in its dialect before the key store is asked', () =>
    withPlane({}, async (plane) => {
      const res = await fetch(`${plane.base}/v1/chat/completions`, { method: 'POST', body: '{}' });
      const body = await res.json();
      expect({ status: res.status, body }).toEqual({
        status: 401,
        body: { error: { type: 'authentication_error', message: expect.stringMatching(/API key/), code: null, param: null }, request_id: res.headers.get('x-request-id') },
      });
      expect(plane.stages).toEqual([]);
    }));

  it('refuses a body over the limit with 413 once the key is good, and 401 without one', () =>
    withPlane({}, async (plane) => {
      const body = JSON.stringify({ text: 'x'.repeat(2_000) });
      const res = await fetch(`${plane.base}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'good' }, body });
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
      expect(plane.stages).toEqual(['key']);
      expect((await fetch(`${plane.base}/v1/messages`, { method: 'POST', body })).status).toBe(401);
    }));

  it.each(['key', 'limits'] as const)('answers a %s stage that breaks as a plain 500 in the dialect, logged, nothing of the cause shown', (broken) =>
    withPlane({ broken }, async (plane) => {
      const res = await fetch(`${plane.base}/v1beta/models/rosetta/m:generateContent`, { method: 'POST', headers: { 'x-goog-api-key': 'good' }, body: '{}' });
      const text = await res.text();
      expect({ status: res.status, body: JSON.parse(text) }).toEqual({
        status: 500,
        body: { error: { code: 500, message: 'Internal server error', status: 'INTERNAL', type: 'api_error' }, request_id: res.headers.get('x-request-id') },
      });
      expect(text).not.toMatch(/ECONNREFUSED|hunter2|evalsha|at /);
      expect(plane.stages).toEqual(broken === 'key' ? ['key'] : ['key', 'handler', 'limits']);
      expect(plane.errors).toEqual([expect.objectContaining({ requestId: res.headers.get('x-request-id') })]);
    }));

  it("keeps the caller's x-request-id only as x-client-request-id: the gateway's own id is the request's", () =>
    withPlane({}, async (plane) => {
      const res = await fetch(`${plane.base}/v1/key`, { headers: { authorization: 'Bearer good', 'x-request-id': 'mine-123' } });
      expect(res.headers.get('x-client-request-id')).toBe('mine-123');
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
      expect(res.headers.get('x-request-id')).not.toContain('mine-123');
    }));

  it('sends nothing more for a handler that wrote its own answer, and nothing at all for a client gone', () =>
    withPlane(
      {
        handlers: {
          chat: (_req, res) => {
            res.statusCode = 200;
            res.setHeader('content-type', 'text/event-stream');
            res.end('data: [DONE]\n\n');
            return undefined;
          },
          count_tokens: () => {
            throw new ClientAbortedError();
          },
        },
      },
      async (plane) => {
        const streamed = await fetch(`${plane.base}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer good' }, body: '{}' });
        expect(await streamed.text()).toBe('data: [DONE]\n\n');
        const gone = await fetch(`${plane.base}/v1/messages/count_tokens`, { method: 'POST', headers: { 'x-api-key': 'good' }, body: '{}' });
        expect({ status: gone.status, body: await gone.text() }).toEqual({ status: 200, body: '' });
        expect(plane.errors).toEqual([]);
      },
    ));
});

/** Writes `bytes` without ending the upload and resolves with the answer's status line as soon as it arrives. */
function firstStatusLine(base: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n');
      if (end < 0) return;
      socket.destroy();
      resolve(text.slice(0, end));
    });
    socket.on('error', reject);
  });
}
