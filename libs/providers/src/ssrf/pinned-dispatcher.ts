import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';
import { ipFamily } from './ip-ranges';

/** A vetted host and the address it was resolved to when it was vetted. */
export interface PinnedAddress {
  host: string;
  address: string;
  family: 4 | 6;
}

export interface PinnedAgentOptions {
  /** TCP + TLS connect time-out; default 10 s (ARCHITECTURE §4.13). */
  connectTimeoutMs?: number;
}

/** Lower-cases and drops IPv6 brackets and trailing dots, so `Example.COM.` matches `example.com`. */
export function normalizeHostname(host: string): string {
  let name = host.trim().toLowerCase();
  if (name.startsWith('[') && name.endsWith(']')) name = name.slice(1, -1);
  while (name.endsWith('.')) name = name.slice(0, -1);
  return name;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `net.connect`/`tls.connect` that never asks DNS: for the pinned host it always
 * answers the pinned address, in both callback shapes Node uses (`all: true` → an array, otherwise
 * address and family). Any other host is refused, so the agent cannot be pointed elsewhere.
 */
export function createPinnedLookup(pinned: PinnedAddress): LookupFunction {
  const expected = normalizeHostname(pinned.host);
  const lookup = (hostname: string, optionsOrCallback: LookupOptions | LookupCallback, maybeCallback?: LookupCallback): void => {
    const callback = typeof optionsOrCallback === 'function' ? optionsOrCallback : maybeCallback;
    const options: LookupOptions = typeof optionsOrCallback === 'function' ? {} : (optionsOrCallback ?? {});
    if (!callback) throw new TypeError('lookup requires a callback');
    process.nextTick(() => {
      if (normalizeHostname(hostname) !== expected) {
        const error: NodeJS.ErrnoException = Object.assign(new Error(`pinned lookup for ${expected} refused host ${hostname}`), {
          code: 'ENOTFOUND',
          hostname,
        });
        callback(error, options.all ? [] : '');
        return;
      }
      if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
      else callback(null, pinned.address, pinned.family);
    });
  };
  return lookup as LookupFunction;
}

/**
 * An undici Agent that connects only to the address pinned when its host was vetted, which
 * defeats DNS rebinding: DNS is never consulted again, whatever it answers now. TLS still uses the
 * original hostname (SNI `servername` and certificate verification), because undici passes the
 * URL's hostname to `tls.connect` and only the address lookup is replaced.
 *
 * Redirects are never followed: undici's `request`/`dispatch` return a 3xx as is (this agent has
 * no redirect interceptor), and the provider adapters treat a 3xx from an upstream as an error, so
 * a vetted host cannot bounce the gateway to an internal one.
 */
export class PinnedAgent extends Agent {
  readonly pinned: Readonly<PinnedAddress>;
  /** The lookup given to every connection this agent makes. */
  readonly lookup: LookupFunction;

  constructor(pinned: PinnedAddress, options: PinnedAgentOptions = {}) {
    const host = normalizeHostname(pinned.host);
    const lookup = createPinnedLookup({ ...pinned, host });
    const isName = ipFamily(host) === 0;
    super({
      connect: { timeout: options.connectTimeoutMs ?? 10_000, lookup, ...(isName ? { servername: host } : {}) },
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 300_000,
      pipelining: 1,
    });
    this.pinned = Object.freeze({ host, address: pinned.address, family: pinned.family });
    this.lookup = lookup;
  }
}

const MAX_CACHED_AGENTS = 64;
const agents = new Map<string, PinnedAgent>();

/**
 * The cached PinnedAgent for (host, address[, connect time-out]); at most 64 are kept, least
 * recently used evicted first. An evicted agent is not closed (a caller may still hold it); its idle
 * keep-alive sockets close on their own after 10 s.
 */
export function pinnedDispatcher(pinned: PinnedAddress, options: PinnedAgentOptions = {}): PinnedAgent {
  const key = `${normalizeHostname(pinned.host)}|${pinned.address}|${options.connectTimeoutMs ?? ''}`;
  const cached = agents.get(key);
  if (cached) {
    agents.delete(key);
    agents.set(key, cached);
    return cached;
  }
  const agent = new PinnedAgent(pinned, options);
  agents.set(key, agent);
  while (agents.size > MAX_CACHED_AGENTS) {
    const oldest = agents.keys().next();
    if (oldest.done) break;
    agents.delete(oldest.value);
  }
  return agent;
}

/** Closes and forgets every cached pinned agent (shutdown and tests). */
export async function closePinnedDispatchers(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((agent) => agent.close()));
}

/** How many pinned agents are cached (for tests and metrics). */
export function pinnedDispatcherCount(): number {
  return agents.size;
}
