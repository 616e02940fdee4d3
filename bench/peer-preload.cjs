/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// Preloaded (node -r) into the peer gateway (@portkey-ai/gateway) only; two shims, neither on its
// non-streaming hot path:
//
// 1. It has no listen-address option and would bind on every interface: a listen() without a host
//    is bound to 127.0.0.1, so the benchmark stays on loopback.
// 2. With @hono/node-server > 1.14.2 (npm resolves 1.19.x for it) its streaming path fails with
//    `TypeError: immutable` when it appends x-portkey-* headers to the upstream fetch Response
//    (Portkey-AI/gateway issues #1389 and #1550). Upstream event streams are re-wrapped in a new
//    Response with mutable headers, as the proposed fix (PR #1551) does; the body is not copied.
const net = require('node:net');

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function loopbackListen(...args) {
  const first = args[0];
  if (first !== null && typeof first === 'object' && !Array.isArray(first)) {
    if (first.host === undefined && first.path === undefined) args[0] = { ...first, host: '127.0.0.1' };
  } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    if (typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
  }
  return listen.apply(this, args);
};

const originalFetch = globalThis.fetch;
globalThis.fetch = async function fetchWithMutableStreamHeaders(...args) {
  const response = await originalFetch.apply(this, args);
  const type = response.headers.get('content-type') || '';
  if (!type.startsWith('text/event-stream')) return response;
  return new globalThis.Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: new Headers(response.headers),
  });
};
