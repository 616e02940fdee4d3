import type { SimExchange } from '../protocols/protocol-module';

/** The same exchange as seen by a public-API protocol module, after the cloud checks passed. */
export function rewriteExchange(exchange: SimExchange, change: { path: string; headers: Record<string, string>; body?: unknown; cacheScope?: string }): SimExchange {
  const url = new URL(change.path, exchange.url);
  url.search = exchange.url.search;
  return {
    ...exchange,
    url,
    headers: { ...exchange.headers, ...change.headers },
    body: change.body === undefined ? exchange.body : { ok: true, value: change.body },
    cacheScope: change.cacheScope ?? exchange.cacheScope,
  };
}
