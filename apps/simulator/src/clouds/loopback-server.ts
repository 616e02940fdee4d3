import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../http-io';

export interface LoopbackServer {
  /** e.g. http://127.0.0.1:PORT */
  url: string;
  /** host:port, the form GCE_METADATA_HOST takes. */
  hostPort: string;
  close(): Promise<void>;
}

export type LoopbackHandler = (req: IncomingMessage, url: URL, body: string, res: ServerResponse) => void;

/** A small HTTP server on 127.0.0.1 for the fake credential services the tests start. */
export async function startLoopbackServer(handler: LoopbackHandler, port = 0): Promise<LoopbackServer> {
  const server = createServer((req, res) => {
    readBody(req)
      .then((body) => handler(req, new URL(req.url ?? '/', 'http://loopback.invalid'), body, res))
      .catch((error: unknown) => {
        if (res.headersSent) return void res.destroy();
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(error instanceof Error ? error.message : 'credential service failure');
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${address.port}`,
    hostPort: `127.0.0.1:${address.port}`,
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      })),
  };
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendJsonBody(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
