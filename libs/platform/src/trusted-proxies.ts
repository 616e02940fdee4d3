import { BlockList, isIP } from 'node:net';
import { ConfigError } from './config-error';

/**
 * `TRUSTED_PROXIES`: the addresses (or CIDR ranges) of the proxies in front of the gateway. Only
 * a request whose peer is one of them has its `X-Forwarded-For` believed; anyone else could write
 * any address there and sign in, or guess tokens, as a new client each time (issue 26).
 */
export function parseTrustedProxies(raw: string | undefined): string[] {
  const entries = (raw ?? '').split(',').map((e) => e.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    if (family === 0 || extra !== undefined || (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > maxBits))) {
      throw new ConfigError('TRUSTED_PROXIES', `'${entry}' is not an IP address or CIDR range (e.g. 10.0.0.5, 10.0.0.0/8, fd00::/8)`);
    }
  }
  return entries;
}

/** The ranges as a BlockList, for `isTrusted`. */
export function trustedProxyList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

/** Whether `address` (an IPv4-mapped IPv6 peer as its IPv4 form) is one of the trusted proxies. */
export function isTrusted(list: BlockList, address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const family = isIP(plain);
  return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The client behind a chain of trusted proxies: the peer itself unless it is trusted; then the
 * right-most `X-Forwarded-For` entry that is not a trusted proxy (entries to its left are what the
 * client wrote, and may be anything).
 */
export function forwardedClient(peer: string | undefined, forwardedFor: string | undefined, list: BlockList): string | undefined {
  if (!forwardedFor || !isTrusted(list, peer)) return peer;
  const hops = forwardedFor.split(',').map((h) => h.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isTrusted(list, hops[i])) return hops[i]!.slice(0, 100);
  }
  return hops[0]?.slice(0, 100) ?? peer;
}
