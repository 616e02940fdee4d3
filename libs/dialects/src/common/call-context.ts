import type { CallContext } from '@rosetta/routing';
import type { GatewayHttpRequest, GatewayHttpResponse } from './http-types';

/** A call context whose signal fires when the client disconnects before the response ends. */
export function callContext(req: GatewayHttpRequest, res: GatewayHttpResponse): CallContext {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableEnded) controller.abort();
  });
  return {
    requestId: req.id,
    signal: controller.signal,
    key: req.apiKey,
    rateLimit: req.rateLimit,
    setHeaders: (headers) => {
      if (!res.headersSent) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    },
  };
}
