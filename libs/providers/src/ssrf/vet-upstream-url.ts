import { promises as dns } from 'node:dns';
import { GatewayError } from '@rosetta/canonical';
import type { Dispatcher } from 'undici';
import { classifyIp } from './ip-ranges';
import { normalizeHostname, pinnedDispatcher } from './pinned-dispatcher';

/** One address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type HostResolver = (host: string) => Promise<ResolvedAddress[]>;

export interface VetUpstreamOptions {
  /**
   * Operator allow-list: an exact host (`10.0.0.7`, `llm.corp.example`, `fd00::7`) or `*.suffix`
   * (any subdomain of `suffix`, not `suffix` itself). An allow-listed host may be on a private
   * address, use `http:` and carry a reserved name; userinfo is refused all the same.
   */
  allowHosts?: readonly string[];
  /** Resolves a host name; default `dns.promises.lookup(host, { all: true, verbatim: true })`. */
  resolve?: HostResolver;
  /** The request field named in errors, e.g. `provider_configs.openai.base_url`. */
  param?: string;
  /** Connect time-out of the pinned agent; default 10 s. */
  connectTimeoutMs?: number;
}

export interface VettedUpstream {
  url: URL;
  /** The URL's hostname, without IPv6 brackets. */
  host: string;
  /** The address every connection goes to. */
  address: string;
  family: 4 | 6;
  /** Use for every request to this upstream: connects to `address` only, TLS still names `host`. */
  dispatcher: Dispatcher;
}

/** Host names that reach the machine itself or a cloud metadata service, whatever DNS says. */
const RESERVED_NAMES = new Set(['localhost', 'metadata', 'metadata.google.internal', 'instance-data']);
const RESERVED_SUFFIXES = ['.localhost', '.internal', '.local'];

export const defaultResolver: HostResolver = async (host) => {
  const answers = await dns.lookup(host, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function canonicalAllowEntry(entry: string): string {
  const trimmed = normalizeHostname(entry);
  if (trimmed.startsWith('*.')) return `*.${normalizeHostname(trimmed.slice(2))}`;
  try {
    const hostname = new URL(`http://${trimmed.includes(':') ? `[${trimmed}]` : trimmed}/`).hostname;
    return normalizeHostname(hostname);
  } catch {
    return trimmed;
  }
}

/** Whether `host` (a URL hostname) is on the operator's allow-list (exact or `*.suffix`). */
export function isAllowListed(host: string, allowHosts: readonly string[] | undefined): boolean {
  if (!allowHosts || allowHosts.length === 0) return false;
  const name = normalizeHostname(host);
  return allowHosts.some((raw) => {
    const entry = canonicalAllowEntry(raw);
    if (entry.startsWith('*.')) {
      const suffix = entry.slice(1);
      return suffix.length > 1 && name.endsWith(suffix) && name.length > suffix.length;
    }
    return entry.length > 0 && entry === name;
  });
}

/** Whether a host name is one of the reserved local/metadata names. */
export function isReservedHostname(host: string): boolean {
  const name = normalizeHostname(host);
  return RESERVED_NAMES.has(name) || RESERVED_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

/**
 * Vets a caller-chosen upstream base URL (ARCHITECTURE §4.9): `https:` only, no userinfo, no
 * reserved names, and every address the host resolves to must be public; the first one is pinned
 * in the returned dispatcher so a later DNS answer (rebinding) cannot redirect the connection. The
 * operator allow-list lifts the scheme, name and address rules for its hosts. Throws
 * `GatewayError.invalidRequest(message, param)`.
 *
 * Operator-configured upstreams are trusted and must not be passed through here.
 */
export async function vetUpstreamUrl(raw: string, options: VetUpstreamOptions = {}): Promise<VettedUpstream> {
  const param = options.param ?? 'base_url';
  const refuse = (why: string): GatewayError => GatewayError.invalidRequest(`\`${param}\` is not allowed: ${why}.`, param);

  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw GatewayError.invalidRequest(`\`${param}\` must be an absolute URL.`, param);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('only https URLs are accepted');
  if (url.username !== '' || url.password !== '') throw refuse('credentials in the URL are not accepted');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') throw refuse('the URL has no host');
  const allowListed = isAllowListed(host, options.allowHosts);

  // Plain http only for hosts the operator vouches for.
  if (url.protocol === 'http:' && !allowListed) throw refuse('only https URLs are accepted');

  const pin = (address: string, family: 4 | 6): VettedUpstream => ({
    url,
    host,
    address,
    family,
    dispatcher: pinnedDispatcher({ host, address, family }, { connectTimeoutMs: options.connectTimeoutMs }),
  });

  const literal = classifyIp(host);
  if (literal) {
    if (!literal.isPublic && !allowListed) throw refuse(`the host is not a public address (${literal.reason})`);
    return pin(host, literal.family);
  }
  if (/^[\d.]+$/.test(host)) {
    // The URL parser canonicalises numeric IPv4 hosts, so this cannot happen; refuse rather than resolve.
    throw refuse('the host is not a valid address');
  }

  if (isReservedHostname(host) && !allowListed) throw refuse('the host name is reserved for local or metadata services');

  let answers: ResolvedAddress[];
  try {
    answers = await (options.resolve ?? defaultResolver)(host);
  } catch {
    throw refuse('the host name could not be resolved');
  }
  if (answers.length === 0) throw refuse('the host name could not be resolved');

  let chosen: ResolvedAddress | undefined;
  for (const answer of answers) {
    const verdict = classifyIp(answer.address);
    if (!verdict) throw refuse('the host name resolved to an invalid address');
    if (!verdict.isPublic && !allowListed) throw refuse(`the host resolves to a non-public address (${verdict.range ? `in ${verdict.range}` : verdict.reason})`);
    if (!chosen && (verdict.isPublic || allowListed)) chosen = { address: answer.address, family: verdict.family };
  }
  if (!chosen) throw refuse('the host name could not be resolved');
  return pin(chosen.address, chosen.family);
}
