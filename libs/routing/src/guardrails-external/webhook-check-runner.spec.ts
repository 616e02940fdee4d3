import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExternalCheckResult, WebhookCheck } from '@rosetta/guardrails';
import { closePinnedDispatchers, type HostResolver } from '@rosetta/providers';
import { WebhookCheckRunner } from './webhook-check-runner';
import { MAX_WEBHOOK_ANSWER_BYTES } from './webhook-exchange';
import { vetWebhookUrl, WebhookTargets } from './webhook-url';

const TEXT = 'Mail jane@example.com — 北京 😀 — then stop.';
const CONTEXT = { requestId: 'req_hook_1', keyId: 'key_7' };

interface Received {
  method: string;
  path: string;
  host: string;
  contentType: string;
  body: unknown;
}

/** A webhook on loopback: answers by path, records what it was sent, counts connections. */
async function startHook() {
  const received: Received[] = [];
  const drips = new Set<ReturnType<typeof setInterval>>();
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method ?? '', path: req.url ?? '', host: req.headers.host ?? '', contentType: req.headers['content-type'] ?? '', body: raw ? (JSON.parse(raw) as unknown) : null });
      server.emit('hook-request');
      answer(req, res, drips);
    });
  });
  server.on('connection', () => (connections += 1));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    received,
    connections: () => connections,
    close: async () => {
      for (const drip of drips) clearInterval(drip);
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function json(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function answer(req: IncomingMessage, res: ServerResponse, drips: Set<ReturnType<typeof setInterval>>): void {
  const padded = (bytes: number) => {
    const head = '{"action":"allow","pad":"';
    return head + 'x'.repeat(bytes - head.length - 2) + '"}';
  };
  switch (req.url) {
    case '/allow':
      return json(res, 200, '{"action":"allow"}');
    case '/block':
      return json(res, 200, '{"action":"block","spans":[{"start":5,"end":21,"kind":"email"}]}');
    case '/redact':
      return json(res, 200, '{"action":"redact","spans":[{"start":10,"end":21,"kind":"domain"},{"start":5,"end":14,"kind":"email"}]}');
    case '/error':
      return json(res, 500, '{"error":"boom"}');
    case '/missing':
      return json(res, 404, '{}');
    case '/redirect':
      res.writeHead(302, { location: '/allow', 'content-length': 0 });
      return void res.end();
    case '/not-json':
      return json(res, 200, 'allow');
    case '/just-fits':
      return json(res, 200, padded(MAX_WEBHOOK_ANSWER_BYTES));
    case '/too-big':
      return json(res, 200, padded(MAX_WEBHOOK_ANSWER_BYTES + 1));
    case '/drip': {
      // Headers at once, then a byte at a time: the body never ends while the client waits.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      const drip = setInterval(() => res.write(' '), 10);
      drips.add(drip);
      res.on('close', () => clearInterval(drip));
      return;
    }
    default:
      // '/hang': never answers.
      return;
  }
}

const check = (url: string, timeoutMs = 5_000): WebhookCheck => ({ check: 'webhook', url, timeoutMs, fail: 'closed', on: 'input', action: 'block' });
const unavailable = (reason: string): ExternalCheckResult => ({ verdict: { action: 'unavailable', reason } as ExternalCheckResult['verdict'] });

let hook: Awaited<ReturnType<typeof startHook>>;
let runner: WebhookCheckRunner;

beforeEach(async () => {
  hook = await startHook();
  runner = new WebhookCheckRunner(new WebhookTargets(['127.0.0.1']));
});

afterEach(async () => {
  await hook.close();
  await closePinnedDispatchers();
});

describe('WebhookCheckRunner: verdicts', () => {
  it('posts the stage, text, request id and key id as JSON, and reads allow', async () => {
    expect(await runner.run(check(`${hook.url}/allow`), TEXT, 'input', CONTEXT)).toEqual({ verdict: { action: 'allow' } });
    expect(hook.received).toEqual([
      { method: 'POST', path: '/allow', host: `127.0.0.1:${hook.port}`, contentType: 'application/json', body: { stage: 'input', text: TEXT, request_id: 'req_hook_1', key_id: 'key_7' } },
    ]);
  });

  it('reads block and redact, the redaction spans sorted and joined', async () => {
    expect(await runner.run(check(`${hook.url}/block`), TEXT, 'output', CONTEXT)).toEqual({ verdict: { action: 'block', kinds: ['email'] } });
    expect(await runner.run(check(`${hook.url}/redact`), TEXT, 'input', CONTEXT)).toEqual({ verdict: { action: 'redact', spans: [{ start: 5, end: 21, kind: 'email' }] } });
    expect(hook.received.map((r) => (r.body as { stage: string }).stage)).toEqual(['output', 'input']);
  });

  it('keeps connections alive across checks (no handshake per request)', async () => {
    for (let i = 0; i < 10; i++) expect(await runner.run(check(`${hook.url}/allow`), TEXT, 'input', CONTEXT)).toEqual({ verdict: { action: 'allow' } });
    expect(hook.received).toHaveLength(10);
    // The pool may open a second connection while the first is being released; never one per check.
    expect(hook.connections()).toBeLessThanOrEqual(2);
  });

  it('answers an answer that is not a verdict, or is over 64 KB, as bad_verdict; one that just fits is read', async () => {
    expect(await runner.run(check(`${hook.url}/not-json`), TEXT, 'input', CONTEXT)).toEqual(unavailable('bad_verdict'));
    expect(await runner.run(check(`${hook.url}/too-big`), TEXT, 'input', CONTEXT)).toEqual(unavailable('bad_verdict'));
    expect(await runner.run(check(`${hook.url}/just-fits`), TEXT, 'input', CONTEXT)).toEqual({ verdict: { action: 'allow' } });
  });
});

describe('WebhookCheckRunner: failures', () => {
  it('answers a server that never answers as timeout', async () => {
    expect(await runner.run(check(`${hook.url}/hang`, 100), TEXT, 'input', CONTEXT)).toEqual(unavailable('timeout'));
    expect(hook.received.map((r) => r.path)).toEqual(['/hang']);
  });

  it('answers a body that drips and never ends as timeout (timeout_ms bounds the whole answer)', async () => {
    expect(await runner.run(check(`${hook.url}/drip`, 200), TEXT, 'input', CONTEXT)).toEqual(unavailable('timeout'));
  });

  it('answers a 5xx or 4xx as upstream_error', async () => {
    expect(await runner.run(check(`${hook.url}/error`), TEXT, 'input', CONTEXT)).toEqual(unavailable('upstream_error'));
    expect(await runner.run(check(`${hook.url}/missing`), TEXT, 'input', CONTEXT)).toEqual(unavailable('upstream_error'));
  });

  it('does not follow a redirect', async () => {
    expect(await runner.run(check(`${hook.url}/redirect`), TEXT, 'input', CONTEXT)).toEqual(unavailable('upstream_error'));
    expect(hook.received.map((r) => r.path)).toEqual(['/redirect']);
  });

  it('answers a refused connection as unreachable', async () => {
    const gone = await startHook();
    await gone.close();
    expect(await runner.run(check(`${gone.url}/allow`), TEXT, 'input', CONTEXT)).toEqual(unavailable('unreachable'));
  });

  it('stops waiting when the client leaves', async () => {
    const client = new AbortController();
    const pending = runner.run(check(`${hook.url}/hang`), TEXT, 'input', { ...CONTEXT, signal: client.signal });
    await once(hook.server, 'hook-request');
    client.abort();
    expect(await pending).toEqual(unavailable('timeout'));
  });

  it('calls nothing for a client already gone', async () => {
    const client = new AbortController();
    client.abort();
    expect(await runner.run(check(`${hook.url}/allow`), TEXT, 'input', { ...CONTEXT, signal: client.signal })).toEqual(unavailable('timeout'));
    expect(hook.received).toEqual([]);
  });
});

describe('WebhookCheckRunner: the SSRF guard', () => {
  it('refuses a loopback, private or metadata URL unless WEBHOOK_ALLOW_HOSTS lists its host', async () => {
    const guarded = new WebhookCheckRunner(new WebhookTargets([]));
    for (const url of [`${hook.url}/allow`, `https://127.0.0.1:${hook.port}/allow`, 'http://169.254.169.254/latest', 'https://localhost/hook', 'https://[::1]/hook']) {
      expect(await guarded.run(check(url), TEXT, 'input', CONTEXT)).toEqual(unavailable('refused_url'));
    }
    expect(await runner.run(check('http://169.254.169.254/latest'), TEXT, 'input', CONTEXT)).toEqual(unavailable('refused_url'));
    expect(await runner.run(check(`http://user:pw@127.0.0.1:${hook.port}/allow`), TEXT, 'input', CONTEXT)).toEqual(unavailable('refused_url'));
    expect(hook.received).toEqual([]);
  });

  it('pins the address a name resolved to when vetted: a later DNS answer (rebinding) does not move the connection', async () => {
    const answers = ['127.0.0.1', '169.254.169.254'];
    const resolve: HostResolver & { calls: number } = Object.assign(
      async () => {
        const address = answers[Math.min(resolve.calls, answers.length - 1)]!;
        resolve.calls += 1;
        return [{ address, family: 4 as const }];
      },
      { calls: 0 },
    );
    const named = new WebhookCheckRunner(new WebhookTargets(['hooks.test'], { resolve }));
    const url = `http://hooks.test:${hook.port}/allow`;
    expect(await named.run(check(url), TEXT, 'input', CONTEXT)).toEqual({ verdict: { action: 'allow' } });
    expect(await named.run(check(url), TEXT, 'input', CONTEXT)).toEqual({ verdict: { action: 'allow' } });
    expect(resolve.calls).toBe(1);
    expect(hook.received.map((r) => r.host)).toEqual([`hooks.test:${hook.port}`, `hooks.test:${hook.port}`]);
  });

  it('reuses a vetting for its time-to-live, then vets again (and refuses a name that now resolves privately)', async () => {
    let now = 0;
    let address = '93.184.216.34';
    let calls = 0;
    const targets = new WebhookTargets([], {
      resolve: async () => {
        calls += 1;
        return [{ address, family: 4 }];
      },
      clock: () => now,
      ttlMs: 1_000,
    });
    const first = await targets.get('https://hooks.example/check');
    expect(first.ok && { host: first.target.host, address: first.target.address }).toEqual({ host: 'hooks.example', address: '93.184.216.34' });
    address = '10.1.2.3';
    now += 999;
    expect(await targets.get('https://hooks.example/check')).toBe(first);
    expect(calls).toBe(1);
    now += 1;
    expect(await targets.get('https://hooks.example/check')).toEqual({ ok: false, reason: 'refused_url' });
    expect(calls).toBe(2);
  });

  it('remembers a refusal for a few seconds only', async () => {
    let now = 0;
    let fail = true;
    const targets = new WebhookTargets([], {
      resolve: async () => {
        if (fail) throw new Error('getaddrinfo EAI_AGAIN');
        return [{ address: '93.184.216.34', family: 4 }];
      },
      clock: () => now,
      refusalTtlMs: 5_000,
    });
    expect(await targets.get('https://hooks.example/check')).toEqual({ ok: false, reason: 'unreachable' });
    fail = false;
    now += 4_999;
    expect(await targets.get('https://hooks.example/check')).toEqual({ ok: false, reason: 'unreachable' });
    now += 1;
    expect((await targets.get('https://hooks.example/check')).ok).toBe(true);
  });

  it('answers a name that does not resolve as unreachable', async () => {
    const targets = new WebhookTargets([], {
      resolve: async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
      },
    });
    expect(await new WebhookCheckRunner(targets).run(check('https://nowhere.example/hook'), TEXT, 'input', CONTEXT)).toEqual(unavailable('unreachable'));
    const empty = new WebhookTargets([], { resolve: async () => [] });
    expect(await new WebhookCheckRunner(empty).run(check('https://nowhere.example/hook'), TEXT, 'input', CONTEXT)).toEqual(unavailable('unreachable'));
  });
});

describe('vetWebhookUrl (the admin API, at save time)', () => {
  it('refuses with a 400 naming the field, and accepts an allow-listed host', async () => {
    const param = 'guardrails[2].url';
    await expect(vetWebhookUrl('http://127.0.0.1:9/hook', [], param)).rejects.toMatchObject({ status: 400, type: 'invalid_request_error', param });
    await expect(vetWebhookUrl('ftp://hooks.example/x', [], param)).rejects.toMatchObject({ status: 400, param });
    await expect(vetWebhookUrl('not a url', [], param)).rejects.toMatchObject({ status: 400, param });
    await expect(vetWebhookUrl('https://a:b@hooks.example/x', ['hooks.example'], param)).rejects.toMatchObject({ status: 400, param });
    const vetted = await vetWebhookUrl('http://127.0.0.1:9/hook', ['127.0.0.1'], param);
    expect({ host: vetted.host, address: vetted.address, family: vetted.family }).toEqual({ host: '127.0.0.1', address: '127.0.0.1', family: 4 });
    const named = await vetWebhookUrl('https://hooks.example/x', [], param, { resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
    expect(named.address).toBe('93.184.216.34');
  });
});
