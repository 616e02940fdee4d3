import { GatewayError } from '@rosetta/canonical';
import { createServer, type Server } from 'node:net';
import { errors } from 'undici';
import { AbortLine } from './abort-line';
import { HttpTransport, translateTransportError } from './http-transport';

const TIMEOUTS = { connectMs: 1_000, firstByteMs: 1_000, idleMs: 1_000, totalMs: 1_000 };

function deep(levels: number): unknown {
  let value: unknown = {};
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('HttpTransport.postJson', () => {
  let server: Server;
  let connections = 0;
  let url: string;

  beforeAll(async () => {
    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as { port: number };
    url = `http://127.0.0.1:${address.port}/v1/chat/completions`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses a body it cannot encode as the request’s fault, before connecting', async () => {
    const transport = new HttpTransport();
    const failure = transport.postJson(url, {}, deep(100_000), { signal: new AbortLine(), timeouts: TIMEOUTS });
    await expect(failure).rejects.toMatchObject({ type: 'invalid_request_error', status: 400, local: true });
    expect(connections).toBe(0);
    await transport.close();
  });

  it('reports a connection the upstream cut as an upstream failure', async () => {
    const transport = new HttpTransport();
    const failure = transport.postJson(url, {}, { ok: true }, { signal: new AbortLine(), timeouts: TIMEOUTS });
    await expect(failure).rejects.toMatchObject({ type: 'upstream_error', status: 502, local: false });
    expect(connections).toBeGreaterThan(0);
    await transport.close();
  });
});

describe('translateTransportError', () => {
  it('maps undici and socket failures to upstream errors and leaves the gateway’s own failures alone', () => {
    expect(translateTransportError(new errors.HeadersTimeoutError())).toMatchObject({ status: 504, message: expect.stringMatching(/first byte/) });
    expect(translateTransportError(Object.assign(new Error('x'), { code: 'EHOSTUNREACH' }))).toMatchObject({ status: 502, local: false });
    const bug = new TypeError('cannot read properties of undefined');
    expect(translateTransportError(bug)).toBe(bug);
    expect(translateTransportError(bug)).not.toBeInstanceOf(GatewayError);
  });
});
