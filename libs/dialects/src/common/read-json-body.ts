import { GatewayError } from '@rosetta/canonical';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-nesting';

const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * Reads a JSON body of any content type (curl -d sends form encoding by default) up to
 * `limitBytes` after decompression, and parses it. Objects and arrays only; an empty body is `{}`.
 * Every failure is a GatewayError the caller renders in its dialect: 413 over the limit, 400 for
 * malformed JSON, nesting deeper than MAX_JSON_DEPTH, an unknown content-encoding or a charset
 * other than UTF-8. A request without a body (no content-length, not chunked) resolves to
 * `undefined`.
 */
export function readJsonBody(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return Promise.resolve(undefined);
  const declared = Number(req.headers['content-length']);
  if (declared > limitBytes) return Promise.reject(tooLarge(req, limitBytes));
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    return Promise.reject(GatewayError.invalidRequest(`Unsupported charset '${charset}': send UTF-8 JSON`));
  }
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  let source: Readable = req;
  if (encoding !== 'identity' && encoding !== '') {
    const decoder = DECODERS[encoding];
    if (!decoder) return Promise.reject(GatewayError.invalidRequest(`Unsupported content-encoding '${encoding}': send gzip, deflate, br or none`));
    source = req.pipe(decoder()) as unknown as Readable;
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let failed = false;
    const fail = (error: GatewayError): void => {
      if (failed) return;
      failed = true;
      source.removeAllListeners('data');
      // A decoder that failed has unpiped the request: drain the rest of the upload, or the
      // keep-alive connection stalls behind it and the client's next request is reset.
      drain(req);
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      length += chunk.length;
      if (length > limitBytes) return fail(tooLarge(req, limitBytes));
      chunks.push(chunk);
    };
    source.on('data', onData);
    source.once('error', (error: Error) => {
      fail(source === req ? GatewayError.invalidRequest('Could not read the request body') : GatewayError.invalidRequest(`Could not decompress the request body: ${error.message}`));
    });
    source.once('end', () => {
      if (failed) return;
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
      // The listener would hold the body's bytes for as long as the request lives (a stream's
      // whole length), on top of the parsed body.
      source.off('data', onData);
      chunks.length = 0;
      // Checked on the bytes before parsing, so nothing downstream ever walks a deeper value.
      if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) return fail(GatewayError.invalidRequest(`Request body nests deeper than ${MAX_JSON_DEPTH} levels`));
      try {
        resolve(parseJson(raw.toString('utf8')));
      } catch (error) {
        fail(error as GatewayError);
      }
    });
  });
}

function parseJson(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const start = body.trimStart();
  if (start === '') return {};
  if (start[0] !== '{' && start[0] !== '[') {
    throw GatewayError.invalidRequest('Malformed JSON in request body: the body must be a JSON object');
  }
  try {
    return JSON.parse(body) as unknown;
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^.*?JSON/, 'JSON') : '';
    throw GatewayError.invalidRequest(`Malformed JSON in request body${detail ? `: ${detail}` : ''}`);
  }
}

/** Over the limit: answer at once, then let the rest of the upload drain into nothing. */
function tooLarge(req: IncomingMessage, limitBytes: number): GatewayError {
  drain(req);
  return new GatewayError('request_too_large', `Request body exceeds the limit of ${limitBytes} bytes`);
}

function drain(req: IncomingMessage): void {
  req.unpipe();
  req.resume();
}
