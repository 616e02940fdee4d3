import type { ApiKeyRecord } from '@rosetta/auth';
import type { LimitState } from '@rosetta/limits';
import type { UsageDraft } from '@rosetta/usage';

/**
 * The few HTTP members the dialect layer needs, so controllers depend on these rather than on
 * Express types (streaming needs raw writes; nothing else does).
 */
export interface GatewayHttpRequest {
  id: string;
  path: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  body: unknown;
  apiKey?: ApiKeyRecord;
  /** Set by the request-rate guard. */
  rateLimit?: LimitState;
  /** The usage-ledger draft of a chat request, so the exception filter can note the error. */
  usageDraft?: UsageDraft;
}

export interface GatewayHttpResponse {
  statusCode: number;
  headersSent: boolean;
  writableEnded: boolean;
  destroyed: boolean;
  status(code: number): this;
  setHeader(name: string, value: string | number | readonly string[]): this;
  getHeader(name: string): unknown;
  json(body: unknown): this;
  write(chunk: string): boolean;
  end(chunk?: string): this;
  flushHeaders(): void;
  on(event: 'close' | 'drain' | 'finish', listener: () => void): this;
  once(event: 'close' | 'drain' | 'finish', listener: () => void): this;
  off(event: 'close' | 'drain' | 'finish', listener: () => void): this;
}
