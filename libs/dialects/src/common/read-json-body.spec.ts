import type { GatewayError } from '@rosetta/canonical';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { MAX_JSON_DEPTH } from './json-nesting';
import { readJsonBody } from './read-json-body';

/** A real node:http server answering what readJsonBody made of each request: 64 bytes at most, 1 MiB on /large. */
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    readJsonBody(req, req.url === '/large' ? 1 << 20 : 64).then(
      (body) => res.end(JSON.stringify({ body: body === undefined ? '<none>' : body, ...(req.url === '/listeners' ? { dataListeners: req.listenerCount('data') } : {}) })),
      (error: GatewayError) => {
        res.statusCode = error.status;
        res.end(JSON.stringify({ type: error.type, message: error.message }));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

function send(body: Buffer | string | undefined, headers: Record<string, string | number> = {}, method = 'POST', path = '/', agent?: Agent): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('readJsonBody', () => {
  it("lets go of the body's bytes once it is read: no data listener is left on the request (an open stream would hold them)", async () => {
    expect(await send('{"a":1}', { 'content-length': 7 }, 'POST', '/listeners')).toEqual({ status: 200, json: { body: { a: 1 }, dataListeners: 0 } });
  });

  it('parses JSON objects and arrays, whatever the content type, and strips a BOM', async () => {
    expect(await send('{"a":[1,"é"]}', { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength('{"a":[1,"é"]}') })).toEqual({ status: 200, json: { body: { a: [1, 'é'] } } });
    expect((await send('\ufeff[1]', { 'transfer-encoding': 'chunked' })).json).toEqual({ body: [1] });
  });

  it('reads an empty body as {} and no body at all as nothing', async () => {
    expect((await send('', { 'content-length': 0 })).json).toEqual({ body: {} });
    expect((await send(undefined, {}, 'GET')).json).toEqual({ body: '<none>' });
  });

  it('inflates gzip bodies', async () => {
    const zipped = gzipSync('{"z":true}');
    expect((await send(zipped, { 'content-encoding': 'gzip', 'content-length': zipped.length })).json).toEqual({ body: { z: true } });
  });

  it('refuses malformed JSON, scalars, unknown encodings and charsets with a 400', async () => {
    const bad = await send('{"a":', { 'content-length': 5 });
    expect(bad.status).toBe(400);
    expect(bad.json['message']).toMatch(/^Malformed JSON in request body: /);
    expect((await send('"hello"', { 'content-length': 7 })).json['message']).toBe('Malformed JSON in request body: the body must be a JSON object');
    expect((await send('{}', { 'content-length': 2, 'content-encoding': 'compress' })).json['message']).toMatch(/Unsupported content-encoding 'compress'/);
    expect((await send('{}', { 'content-length': 2, 'content-type': 'application/json; charset=latin1' })).json['message']).toMatch(/Unsupported charset 'latin1'/);
  });

  it('refuses bodies over the limit with a 413, declared or streamed, and after inflation', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(200) });
    expect(await send(big, { 'content-length': big.length })).toEqual({ status: 413, json: { type: 'request_too_large', message: 'Request body exceeds the limit of 64 bytes' } });
    expect((await send(big, { 'transfer-encoding': 'chunked' })).status).toBe(413);
    const bomb = gzipSync(big);
    expect(bomb.length).toBeLessThan(64);
    expect((await send(bomb, { 'content-encoding': 'gzip', 'content-length': bomb.length })).status).toBe(413);
  });

  it(`refuses bodies nesting deeper than ${MAX_JSON_DEPTH} levels with a 400 naming the limit, however deep`, async () => {
    const large = (text: string | Buffer): Promise<{ status: number; json: Record<string, unknown> }> => send(text, { 'content-length': text.length }, 'POST', '/large');
    const arrays = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const refused = { status: 400, json: { type: 'invalid_request_error', message: `Request body nests deeper than ${MAX_JSON_DEPTH} levels` } };
    expect((await large(`{"a":${arrays(MAX_JSON_DEPTH - 1)}}`)).status).toBe(200);
    expect(await large(`{"a":${arrays(MAX_JSON_DEPTH)}}`)).toEqual(refused);
    expect(await large(`{"a":${arrays(100_000)}}`)).toEqual(refused);
    expect(await large(`{"a":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`)).toEqual(refused);
    const zipped = gzipSync(`{"a":${arrays(50_000)}}`);
    expect(await send(zipped, { 'content-encoding': 'gzip', 'content-length': zipped.length }, 'POST', '/large')).toEqual(refused);
  });

  it('drains an upload it refused half-way, so the keep-alive connection serves the next request', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const notGzip = Buffer.alloc(200_000, 'x');
      const refused = await send(notGzip, { 'content-encoding': 'gzip', 'transfer-encoding': 'chunked' }, 'POST', '/large', agent);
      expect(refused).toEqual({ status: 400, json: { type: 'invalid_request_error', message: 'Could not decompress the request body: incorrect header check' } });
      expect(await send('{"next":1}', { 'content-length': 10 }, 'POST', '/large', agent)).toEqual({ status: 200, json: { body: { next: 1 } } });
    } finally {
      agent.destroy();
    }
  });
});
