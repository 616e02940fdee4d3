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

/**
 * Writes a request's head and only part of its body, never ending the upload, and resolves with
 * the whole answer once it has arrived: an answer that waits for the rest of the body never comes.
 */
export function answerBeforeUpload(base: string, head: string, partialBody: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${head}\r\n\r\n${partialBody}`));
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const answer = complete(text);
      if (!answer) return;
      socket.destroy();
      resolve(answer);
    });
    socket.on('error', reject);
  });
}

function complete(text: string): RawAnswer | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const headers = text.slice(0, end);
  const length = /^content-length: (\d+)$/im.exec(headers)?.[1];
  const body = text.slice(end + 4);
  if (length !== undefined ? body.length < Number(length) : !body.includes('0\r\n\r\n')) return undefined;
  return parseAnswer(text);
}
