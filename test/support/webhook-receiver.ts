import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got: its path, headers and the raw body as sent. */
export interface ReceivedHook {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  body: { event: string; text: string; data: Record<string, any>; id: string };
  /** What the receiver answered. */
  status: number;
}

/** A webhook receiver on loopback, as an operator's (or Slack's) would be: a real HTTP server. */
export interface WebhookReceiver {
  url: string;
  received(): ReceivedHook[];
  /** The next `count` POSTs to `path` are answered `status` (then 200 again). */
  failNext(path: string, count: number, status: number): void;
  /** Waits (polling, bounded) until `predicate` holds over what was received; fails with what came. */
  until(predicate: (hooks: ReceivedHook[]) => boolean, what: string, timeoutMs?: number): Promise<ReceivedHook[]>;
  close(): Promise<void>;
}

/** What a receiver does with `x-rosetta-signature`: HMAC-SHA256 of the raw body, compared in constant time. */
export function signatureValid(secret: string, raw: string, header: unknown): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const hooks: ReceivedHook[] = [];
  const failing = new Map<string, { count: number; status: number }>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const fail = failing.get(path);
      const status = fail && fail.count > 0 ? fail.status : 200;
      if (fail && fail.count > 0) fail.count -= 1;
      let body: ReceivedHook['body'];
      try {
        body = JSON.parse(raw);
      } catch {
        body = { event: '', text: '', data: {}, id: '' };
      }
      hooks.push({ path, headers: req.headers, raw, body, status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => [...hooks],
    failNext: (path, count, status) => failing.set(path, { count, status }),
    async until(predicate, what, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(hooks)) {
        if (Date.now() > deadline) throw new Error(`webhook receiver: ${what} did not arrive; got ${JSON.stringify(hooks.map((h) => ({ path: h.path, id: h.body.id, status: h.status })))}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return [...hooks];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
