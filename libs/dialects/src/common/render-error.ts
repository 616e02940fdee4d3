import type { GatewayError, DialectId } from '@rosetta/canonical';
import { dialect as dialectOf } from '@rosetta/protocols/dialects';
import { sendJson, type GatewayHttpResponse } from './http-types';

export function renderErrorBody(dialect: DialectId, error: GatewayError, requestId: string): Record<string, unknown> {
  return dialectOf(dialect).renderError(error, requestId);
}

/** Writes an error response in the caller's dialect, with retry hints for 429s. */
export function sendError(res: GatewayHttpResponse, dialect: DialectId, error: GatewayError, requestId: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  if (error.retryAfterMs !== undefined && (error.status === 429 || error.status === 503)) {
    res.setHeader('retry-after', String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))));
    res.setHeader('retry-after-ms', String(Math.ceil(error.retryAfterMs)));
  }
  // Tell the official SDKs not to retry what a retry cannot fix.
  if (error.status < 500 && error.status !== 429 && error.status !== 408) res.setHeader('x-should-retry', 'false');
  sendJson(res, error.status, renderErrorBody(dialect, error, requestId));
}
