import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: string;
  body: string;
}

/**
 * One request written byte for byte over TCP: for request targets no HTTP client will send
 * (absolute form, fragments). The server closes the connection (`Connection: close`): a client
 * that half-closed first would have its slower answers dropped.
 */
export function rawRequest(base: string, head: string, body = ''): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(parseAnswer(Buffer.concat(chunks).toString('latin1'))));
  });
}

export function parseAnswer(text: string): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  const headers = end < 0 ? text : text.slice(0, end);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0);
  const body = end < 0 ? '' : text.slice(end + 4);
  return { status, headers, body: /^transfer-encoding: chunked$/im.test(headers) ? dechunk(body) : body };
}

function dechunk(text: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const line = text.indexOf('\r\n', at);
    const size = line < 0 ? 0 : parseInt(text.slice(at, line), 16);
    if (!size) return out;
    out += text.slice(line + 2, line + 2 + size);
    at = line + 2 + size + 2;
  }
}
