import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase } from './support/services';

/** An OpenAI-protocol upstream that streams forever and records when its client goes away. */
function startEndlessUpstream(): Promise<{ url: string; server: Server; closed: Promise<number> }> {
  let markClosed: (chunks: number) => void = () => undefined;
  const closed = new Promise<number>((resolve) => (markClosed = resolve));
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let n = 0;
    const chunk = (delta: Record<string, unknown>) =>
      `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }));
    const timer = setInterval(() => res.write(chunk({ content: `tick${n++} ` })), 50);
    res.on('close', () => {
      clearInterval(timer);
      markClosed(n);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server, closed })),
  );
}

describe('upstream transport: cancellation and time-outs', () => {
  let db: { url: string; drop(): Promise<void> };
  const gateways: GatewayProcess[] = [];
  let sim: RunningSimulator;

  beforeAll(async () => {
    db = await createTestDatabase();
    sim = await startSimulator();
  });
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop()));
    await sim?.close();
    await db?.drop();
  });

  it('a client that disconnects mid-stream cancels the upstream call', async () => {
    const upstream = await startEndlessUpstream();
    const gateway = await startGateway({ DATABASE_URL: db.url, OPENAI_BASE_URL: upstream.url, OPENAI_API_KEY: 'sk-op-0000000000000000' });
    gateways.push(gateway);
    const { key } = await createKey(gateway);
    const controller = new AbortController();
    const res = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'go' }] }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('chat.completion.chunk');
    controller.abort();
    const ticks = await Promise.race([upstream.closed, new Promise<string>((r) => setTimeout(() => r('still open'), 3000))]);
    expect(typeof ticks).toBe('number');
    upstream.server.close();
  });

  it('a client gone before the answer started leaves one ledger row with 499 client_disconnected, not 200', async () => {
    const gateway = await startGateway({ DATABASE_URL: db.url, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-op-0000000000000000' });
    gateways.push(gateway);
    const { key } = await createKey(gateway);
    sim.script({ match: 'client-leaves-early', reply: { text: 'too late', latencyMs: 2000 } });
    const controller = new AbortController();
    const clientId = `leaves-${Date.now()}`;
    const pending = fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': clientId },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'client-leaves-early' }] }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    // Leave once the request has reached the upstream.
    while (!sim.requests().some((r) => JSON.stringify(r.body).includes('client-leaves-early'))) await new Promise((r) => setImmediate(r));
    controller.abort();
    expect(((await pending) as Error).name).toBe('AbortError');
    let row: any;
    for (let tries = 0; tries < 50 && !row; tries++) {
      const found = await adminCall(gateway, 'GET', `/admin/requests/${clientId}`);
      if (found.status === 200) row = found.body;
    }
    expect(row).toMatchObject({ client_request_id: clientId, status: 499, error_type: 'client_disconnected' });
  });

  it('a stream the client cuts is charged for what was used, not recorded at zero cost', async () => {
    const gateway = await startGateway({ DATABASE_URL: db.url, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-op-0000000000000000' });
    gateways.push(gateway);
    const { key } = await createKey(gateway);
    sim.script({ match: 'cut-me-off', reply: { text: 'word '.repeat(400), tokensPerSecond: 40 } });
    const clientId = `cut-${Date.now()}`;
    const controller = new AbortController();
    const res = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': clientId },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'cut-me-off '.repeat(50) }] }),
      signal: controller.signal,
    });
    // Read a few words of the answer (each comes in its own chunk), then hang up mid-stream.
    const reader = res.body!.getReader();
    let seen = '';
    while ((seen.match(/word/g) ?? []).length < 3) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`the stream ended before it could be cut: ${seen}`);
      seen += new TextDecoder().decode(value);
    }
    controller.abort();
    let row: any;
    for (let tries = 0; tries < 50 && !row; tries++) {
      const found = await adminCall(gateway, 'GET', `/admin/requests/${clientId}`);
      if (found.status === 200) row = found.body;
    }
    expect(row).toMatchObject({ client_request_id: clientId, status: 200, error_type: 'client_disconnected' });
    // The prompt and the output relayed so far, priced: never a free cut stream.
    expect(row.input_tokens).toBeGreaterThan(50);
    expect(row.output_tokens).toBeGreaterThan(0);
    expect(Number(row.cost_usd)).toBeGreaterThan(0);
  });

  it('an upstream slower than the first-byte time-out is a 504 upstream_error', async () => {
    const gateway = await startGateway({
      DATABASE_URL: db.url,
      OPENAI_BASE_URL: `${sim.url}/v1`,
      OPENAI_API_KEY: 'sk-op-0000000000000000',
      UPSTREAM_FIRST_BYTE_TIMEOUT_MS: '300',
    });
    gateways.push(gateway);
    const { key } = await createKey(gateway);
    sim.script({ match: 'slow-first-byte', reply: { text: 'late', latencyMs: 3000 } });
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const error = await client.chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'slow-first-byte' }] }).catch((e) => e);
    expect(error.status).toBe(504);
    expect(error.error).toEqual(expect.objectContaining({ type: 'upstream_error', message: 'Upstream service error: timed out waiting for the first byte' }));
  });

  it('a refused connection is a 502 upstream_error', async () => {
    const gateway = await startGateway({ DATABASE_URL: db.url, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'sk-op-0000000000000000' });
    gateways.push(gateway);
    const { key } = await createKey(gateway);
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const error = await client.chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(error.status).toBe(502);
    expect(error.error).toEqual(expect.objectContaining({ type: 'upstream_error', message: 'Upstream service error: connection refused' }));
  });

  it('the admin CLI creates, lists and revokes keys against a running gateway', async () => {
    const gateway = gateways[0]!;
    const { execFileSync } = await import('node:child_process');
    const cli = (...args: string[]) =>
      JSON.parse(
        execFileSync(process.execPath, ['dist/apps/gateway/src/admin-cli.js', ...args], {
          env: { PATH: process.env['PATH'], ROSETTA_URL: gateway.url, ADMIN_TOKEN: 'test-admin-token-0123456789abcdef' },
          encoding: 'utf8',
        }),
      );
    const created = cli('keys', 'create', '--plan', 'pro', '--name', 'ci', '--rpm', '50');
    expect(created).toEqual(expect.objectContaining({ name: 'ci', plan: 'pro', rpm: 50, key: expect.stringMatching(/^rsk_/) }));
    expect(cli('keys', 'list').map((k: { id: string }) => k.id)).toContain(created.id);
    expect(cli('keys', 'revoke', created.id).revoked_at).toEqual(expect.any(String));
    expect(cli('plans', 'set', 'cli-plan', '--rpm', '5', '--tpm', 'null')).toEqual({ name: 'cli-plan', rpm: 5, tpm: null, cache: null, prompt_cache: null, guardrails: null });
  });
});
