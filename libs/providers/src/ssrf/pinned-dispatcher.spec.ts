import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type LookupFunction, type Server as TcpServer } from 'node:net';
import {
  closePinnedDispatchers,
  createPinnedLookup,
  normalizeHostname,
  PinnedAgent,
  pinnedDispatcher,
  pinnedDispatcherCount,
} from './pinned-dispatcher';
import { vetUpstreamUrl, type HostResolver } from './vet-upstream-url';

type LookupResult = { err: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number };

function callLookup(lookup: LookupFunction, host: string, options: { all?: boolean; family?: number }): Promise<LookupResult> {
  return new Promise((resolve) => {
    lookup(host, options, (err, address, family) => resolve({ err, address, family }));
  });
}

/** Answers from a script: the first call gets the first answer, and so on; the last one repeats. */
function scriptedResolver(...script: string[]): HostResolver & { calls: number } {
  const resolver = Object.assign(
    async () => {
      const address = script[Math.min(resolver.calls, script.length - 1)] as string;
      resolver.calls += 1;
      return [{ address, family: address.includes(':') ? (6 as const) : (4 as const) }];
    },
    { calls: 0 },
  );
  return resolver;
}

function listen<T extends Server | TcpServer>(server: T): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function close(server: Server | TcpServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

afterEach(() => closePinnedDispatchers());

describe('pinned lookup', () => {
  const lookup = createPinnedLookup({ host: 'api.example.com', address: '93.184.216.34', family: 4 });

  it('answers the pinned address in both callback forms', async () => {
    expect(await callLookup(lookup, 'api.example.com', { all: true })).toEqual({
      err: null,
      address: [{ address: '93.184.216.34', family: 4 }],
      family: undefined,
    });
    expect(await callLookup(lookup, 'api.example.com', {})).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    expect(await callLookup(lookup, 'API.example.com.', { family: 6 })).toEqual({ err: null, address: '93.184.216.34', family: 4 });
  });

  it('refuses any other host', async () => {
    const result = await callLookup(lookup, 'evil.example.com', {});
    expect({ code: result.err?.code, message: result.err?.message, address: result.address }).toEqual({
      code: 'ENOTFOUND',
      message: 'pinned lookup for api.example.com refused host evil.example.com',
      address: '',
    });
    const all = await callLookup(lookup, 'evil.example.com', { all: true });
    expect({ code: all.err?.code, address: all.address }).toEqual({ code: 'ENOTFOUND', address: [] });
  });

  it('normalises host names', () => {
    expect(normalizeHostname(' Example.COM.. ')).toBe('example.com');
    expect(normalizeHostname('[::1]')).toBe('::1');
  });
});

describe('pinned dispatcher cache', () => {
  it('shares one agent per host and address, and keeps at most 64', () => {
    const a = pinnedDispatcher({ host: 'a.example', address: '8.8.8.8', family: 4 });
    expect(pinnedDispatcher({ host: 'A.example.', address: '8.8.8.8', family: 4 })).toBe(a);
    expect(pinnedDispatcher({ host: 'a.example', address: '8.8.4.4', family: 4 })).not.toBe(a);
    expect(pinnedDispatcher({ host: 'a.example', address: '8.8.8.8', family: 4 }, { connectTimeoutMs: 500 })).not.toBe(a);
    expect(pinnedDispatcherCount()).toBe(3);
    for (let i = 0; i < 100; i++) pinnedDispatcher({ host: `h${i}.example`, address: '8.8.8.8', family: 4 });
    expect(pinnedDispatcherCount()).toBe(64);
    expect(pinnedDispatcher({ host: 'a.example', address: '8.8.8.8', family: 4 })).not.toBe(a);
  });
});

describe('DNS rebinding is defeated', () => {
  it('keeps answering the address pinned at vetting time after DNS turns private', async () => {
    const resolve = scriptedResolver('93.184.216.34', '127.0.0.1');
    const first = await vetUpstreamUrl('https://rebind.example.com/v1', { resolve });
    await expect(vetUpstreamUrl('https://rebind.example.com/v1', { resolve })).rejects.toMatchObject({
      message: '`base_url` is not allowed: the host resolves to a non-public address (in 127.0.0.0/8).',
    });
    expect(resolve.calls).toBe(2);

    const agent = first.dispatcher as PinnedAgent;
    expect(agent).toBeInstanceOf(PinnedAgent);
    expect(agent.pinned).toEqual({ host: 'rebind.example.com', address: '93.184.216.34', family: 4 });
    expect(await callLookup(agent.lookup, 'rebind.example.com', { all: true })).toEqual({
      err: null,
      address: [{ address: '93.184.216.34', family: 4 }],
      family: undefined,
    });
    expect(await callLookup(agent.lookup, 'rebind.example.com', {})).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    expect(resolve.calls).toBe(2);
  });

  describe('over a real connection', () => {
    let server: Server;
    let port: number;
    const seen: Array<{ host: string | undefined; url: string | undefined }> = [];

    beforeAll(async () => {
      server = createServer((req: IncomingMessage, res: ServerResponse) => {
        seen.push({ host: req.headers.host, url: req.url });
        if (req.url === '/redirect') {
          res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${req.headers.host}`);
      });
      port = await listen(server);
    });

    beforeEach(() => {
      seen.length = 0;
    });

    afterAll(() => close(server));

    it('connects to the pinned address, not to what DNS says later', async () => {
      // `pinned.test` exists in no DNS; only the pin can take the connection to 127.0.0.1.
      const resolve = scriptedResolver('127.0.0.1', '10.255.255.1');
      const vetted = await vetUpstreamUrl(`http://pinned.test:${port}/v1`, { allowHosts: ['pinned.test'], resolve });
      expect({ address: vetted.address, calls: resolve.calls }).toEqual({ address: '127.0.0.1', calls: 1 });

      for (const path of ['/v1/a', '/v1/b']) {
        const res = await vetted.dispatcher.request({ origin: vetted.url.origin, path, method: 'GET' });
        expect({ status: res.statusCode, body: await res.body.text() }).toEqual({ status: 200, body: `hello pinned.test:${port}` });
      }
      expect(seen).toEqual([
        { host: `pinned.test:${port}`, url: '/v1/a' },
        { host: `pinned.test:${port}`, url: '/v1/b' },
      ]);
      expect(resolve.calls).toBe(1);
    });

    it('refuses to carry requests for another origin', async () => {
      const vetted = await vetUpstreamUrl(`http://pinned.test:${port}/v1`, { allowHosts: ['pinned.test'], resolve: scriptedResolver('127.0.0.1') });
      await expect(vetted.dispatcher.request({ origin: `http://elsewhere.test:${port}`, path: '/', method: 'GET' })).rejects.toMatchObject({
        code: 'ENOTFOUND',
      });
      expect(seen).toEqual([]);
    });

    it('does not follow redirects', async () => {
      const vetted = await vetUpstreamUrl(`http://pinned.test:${port}/v1`, { allowHosts: ['pinned.test'], resolve: scriptedResolver('127.0.0.1') });
      const res = await vetted.dispatcher.request({ origin: vetted.url.origin, path: '/redirect', method: 'GET' });
      await res.body.dump();
      expect({ status: res.statusCode, location: res.headers.location }).toEqual({
        status: 302,
        location: 'http://169.254.169.254/latest/meta-data',
      });
      expect(seen).toEqual([{ host: `pinned.test:${port}`, url: '/redirect' }]);
    });
  });

  it('keeps the original host name for TLS (SNI) while connecting to the pinned address', async () => {
    let hello: Buffer | undefined;
    const tcp = createTcpServer((socket) => {
      socket.once('data', (chunk: Buffer) => {
        hello = chunk;
        socket.destroy();
      });
    });
    const port = await listen(tcp);
    try {
      const vetted = await vetUpstreamUrl(`https://sni-check.test:${port}/v1`, {
        allowHosts: ['sni-check.test'],
        resolve: scriptedResolver('127.0.0.1'),
      });
      await expect(vetted.dispatcher.request({ origin: vetted.url.origin, path: '/v1', method: 'GET' })).rejects.toBeDefined();
      // A TLS ClientHello is a handshake record (0x16) and carries the server name in clear.
      expect({ recordType: hello?.[0], namesHost: hello?.includes('sni-check.test') ?? false }).toEqual({ recordType: 0x16, namesHost: true });
    } finally {
      await close(tcp);
    }
  });
});
