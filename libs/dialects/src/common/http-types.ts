import type { ApiKeyRecord } from '@rosetta/auth';
import type { DialectId } from '@rosetta/canonical';
import type { RequestCount } from '@rosetta/limits';
import type { RequestSpan } from '@rosetta/platform';
import type { UsageDraft } from '@rosetta/usage';

/**
 * The few HTTP members the dialect layer needs, so handlers depend on these rather than on
 * Express types: node's own ServerResponse satisfies GatewayHttpResponse, and so does Express's.
 */
export interface GatewayHttpRequest {
  /** The gateway's own request id (never the caller's). */
  id: string;
  /** The caller's x-request-id, kept for support lookups. */
  clientRequestId?: string;
  path: string;
  method: string;
  /** The dialect of the route (the data plane knows it); else found from the path. */
  dialect?: DialectId;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  body: unknown;
  apiKey?: ApiKeyRecord;
  /** The request's count against its key's RPM (the data plane's limits stage, or admission). */
  requestCount?: RequestCount;
  /** The usage-ledger draft of a chat request, so the exception filter can note the error. */
  usageDraft?: UsageDraft;
  /** The request's trace span, only when tracing is on. */
  trace?: RequestSpan;
}

export interface GatewayHttpResponse {
  statusCode: number;
  headersSent: boolean;
  writableEnded: boolean;
  destroyed: boolean;
  setHeader(name: string, value: string | number | readonly string[]): this;
  getHeader(name: string): unknown;
  write(chunk: string): boolean;
  end(chunk?: string): this;
  on(event: 'close' | 'drain' | 'finish', listener: () => void): this;
  once(event: 'close' | 'drain' | 'finish', listener: () => void): this;
  off(event: 'close' | 'drain' | 'finish', listener: () => void): this;
}

/** Writes a whole JSON response: status, content type and length, one write. */
export function sendJson(res: GatewayHttpResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}
