import type { AddressInfo } from 'node:net';

/**
 * Where clients send their requests, as the dashboard shows it beside a new key. Without
 * ADMIN_PORT the dashboard is served by the data plane's own listener: the page's own origin is
 * the answer (whatever proxy sits in front). With ADMIN_PORT the data plane listens elsewhere: its
 * port, and its host unless it listens on every interface (0.0.0.0, ::), where only the page
 * knows which name reaches this machine (`host: null`: use the page's own hostname).
 */
export type DataPlaneView = { same_origin: true } | { same_origin: false; host: string | null; port: number };

const EVERY_INTERFACE = new Set(['0.0.0.0', '::', '']);

export function dataPlaneView(config: { host: string; adminPort?: number }, address: AddressInfo | string | null): DataPlaneView | undefined {
  if (config.adminPort === undefined) return { same_origin: true };
  if (address === null || typeof address === 'string') return undefined; // not listening on TCP (yet): say nothing rather than guess
  return { same_origin: false, host: EVERY_INTERFACE.has(config.host) ? null : config.host, port: address.port };
}
