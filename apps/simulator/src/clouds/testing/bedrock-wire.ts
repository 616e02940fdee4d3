import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { SignatureV4 } from '@smithy/signature-v4';
import type { SimAwsCredentials } from '../aws-credentials';

/**
 * Bedrock's wire for tests that look beneath the SDKs: requests signed by the AWS SDK's own
 * signer, and responses split into AWS event-stream frames with their headers, so a test sees
 * exactly the frames, padding and exceptions the simulator wrote.
 */

type SourceData = string | ArrayBuffer | ArrayBufferView;

function bytes(data: SourceData): string | Uint8Array {
  if (typeof data === 'string') return data;
  return ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
}

/** SHA-256 and HMAC-SHA256 from node:crypto, in the shape the SDK's signer takes. */
export class NodeSha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }
  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
  reset(): void {
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(this.secret));
  }
}

export interface SignedCall {
  /** Absolute URL, e.g. `${sim.url}/model/…%3A0/converse`. */
  url: string;
  body: string;
  credentials: SimAwsCredentials;
  region?: string;
  signingDate?: Date;
}

/** The headers of a POST signed for service `bedrock`, path and query exactly as in `url`. */
export async function signBedrockCall(call: SignedCall): Promise<Record<string, string>> {
  const url = new URL(call.url);
  const signer = new SignatureV4({ credentials: call.credentials, region: call.region ?? 'us-east-1', service: 'bedrock', sha256: NodeSha256 });
  const query = Object.fromEntries(url.searchParams.entries());
  const headers = { host: url.host, 'content-type': 'application/json' };
  const signed = await signer.sign(
    { method: 'POST', protocol: url.protocol, hostname: url.hostname, port: Number(url.port), path: url.pathname, query, headers, body: call.body },
    call.signingDate ? { signingDate: call.signingDate } : {},
  );
  return signed.headers;
}

/** One decoded frame: its string headers and its payload as text. */
export interface WireFrame {
  headers: Record<string, string>;
  payload: string;
}

const codec = new EventStreamCodec(
  (data) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8'),
  (text) => Buffer.from(text, 'utf8'),
);

/** The complete frames in `data` (a cut stream may end inside one, which is left out). */
export function splitFrames(data: Uint8Array): WireFrame[] {
  const frames: WireFrame[] = [];
  let offset = 0;
  while (offset + 4 <= data.length) {
    const length = new DataView(data.buffer, data.byteOffset + offset, 4).getUint32(0);
    if (length < 16 || offset + length > data.length) break;
    const message = codec.decode(data.subarray(offset, offset + length));
    const headers = Object.fromEntries(Object.entries(message.headers).map(([name, header]) => [name, String(header.value)]));
    frames.push({ headers, payload: Buffer.from(message.body).toString('utf8') });
    offset += length;
  }
  return frames;
}

/** Reads a response body to its end, or to the connection's failure; `failed` says which. */
export async function readAll(response: Response): Promise<{ data: Uint8Array; failed: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { data: new Uint8Array(), failed: false };
  const chunks: Uint8Array[] = [];
  try {
    for (let result = await reader.read(); !result.done; result = await reader.read()) chunks.push(result.value);
    return { data: Buffer.concat(chunks), failed: false };
  } catch {
    return { data: Buffer.concat(chunks), failed: true };
  }
}
