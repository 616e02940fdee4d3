import type { AbortWatch } from './abort-line';
import { GatewayError } from '@rosetta/canonical';
import { Agent, errors, request, type Dispatcher } from 'undici';
import type { UpstreamTimeoutsMs } from './provider-adapter';
import { upstreamTimeout, upstreamUnreachable } from './upstream-error';

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Uint8Array> & { text(): Promise<string>; json(): Promise<unknown>; dump(): Promise<void> };
}

/**
 * The data-plane HTTP client: keep-alive pools per origin (undici Agent), time-outs per
 * ARCHITECTURE §4.13, and abort when the caller goes away. Bodies are never buffered for streams.
 */
export class HttpTransport {
  private readonly agents = new Map<number, Agent>();

  private agentFor(connectMs: number): Agent {
    let agent = this.agents.get(connectMs);
    if (!agent) {
      agent = new Agent({ connect: { timeout: connectMs }, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 300_000, pipelining: 1 });
      this.agents.set(connectMs, agent);
    }
    return agent;
  }

  async postJson(
    url: string,
    headers: Record<string, string>,
    body: unknown,
    options: { signal: AbortWatch; timeouts: UpstreamTimeoutsMs; dispatcher?: Dispatcher },
  ): Promise<UpstreamResponse> {
    const payload = serialise(body);
    try {
      const res = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body: payload,
        signal: options.signal,
        dispatcher: options.dispatcher ?? this.agentFor(options.timeouts.connectMs),
        headersTimeout: options.timeouts.firstByteMs,
        bodyTimeout: options.timeouts.idleMs,
      });
      return { status: res.statusCode, headers: res.headers, body: res.body };
    } catch (error) {
      throw translateTransportError(error, options.signal);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.agents.values()].map((a) => a.close()));
    this.agents.clear();
  }
}

/** A body already encoded, sent byte for byte: a signature (SigV4) covers exactly these bytes. */
export class EncodedBody {
  constructor(readonly text: string) {}
}

/**
 * The wire body, before anything is sent: a body the gateway cannot encode (nesting past what
 * JSON.stringify's recursion allows) is the request's fault, never the upstream's.
 */
export function serialise(body: unknown): string {
  if (body instanceof EncodedBody) return body.text;
  try {
    return JSON.stringify(body);
  } catch (error) {
    const detail = error instanceof RangeError ? 'it nests too deeply' : 'it holds a value JSON cannot carry';
    throw new GatewayError('invalid_request_error', `The request could not be encoded for the upstream: ${detail}`, { local: true });
  }
}

/**
 * Maps undici, socket and abort failures to gateway errors; a client abort is re-thrown as is,
 * and so is anything else (a failure of the gateway's own code, which the caller treats as local).
 */
export function translateTransportError(error: unknown, signal?: Pick<AbortWatch, 'aborted' | 'reason'>): unknown {
  if (error instanceof GatewayError) return error;
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof GatewayError) return reason;
    if (reason instanceof DOMException && reason.name === 'TimeoutError') return upstreamTimeout('the response to complete');
    return reason ?? error;
  }
  if (error instanceof errors.ConnectTimeoutError) return upstreamTimeout('a connection');
  if (error instanceof errors.HeadersTimeoutError) return upstreamTimeout('the first byte');
  if (error instanceof errors.BodyTimeoutError) return upstreamTimeout('the next stream event');
  const code = (error as { code?: string }).code;
  if (code === 'ECONNREFUSED') return upstreamUnreachable('connection refused');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return upstreamUnreachable('host not found');
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || error instanceof errors.SocketError) {
    return upstreamUnreachable('connection reset');
  }
  if (error instanceof errors.UndiciError || (typeof code === 'string' && /^E[A-Z]+$/.test(code))) return upstreamUnreachable('request failed');
  return error;
}
