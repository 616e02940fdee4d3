import { forwardedClient, isTrusted, parseTrustedProxies, trustedProxyList } from './trusted-proxies';

describe('TRUSTED_PROXIES', () => {
  const list = trustedProxyList(parseTrustedProxies('10.0.0.0/8, 127.0.0.1, fd00::/8'));

  it('trusts the listed addresses and ranges, IPv4-mapped peers as their IPv4 form', () => {
    expect(['10.1.2.3', '127.0.0.1', '::ffff:127.0.0.1', 'fd00::5', '127.0.0.2', '203.0.113.9', 'nonsense', undefined].map((a) => isTrusted(list, a))).toEqual([
      true, true, true, true, false, false, false, false,
    ]);
  });

  it('believes X-Forwarded-For only from a trusted peer, taking the right-most untrusted hop', () => {
    expect(forwardedClient('203.0.113.9', '198.51.100.1', list)).toBe('203.0.113.9');
    expect(forwardedClient('127.0.0.1', '198.51.100.1', list)).toBe('198.51.100.1');
    // The left-most entries are what the client wrote: a guesser cannot pick its own address.
    expect(forwardedClient('127.0.0.1', '1.2.3.4, 198.51.100.1, 10.0.0.7', list)).toBe('198.51.100.1');
    expect(forwardedClient('127.0.0.1', undefined, list)).toBe('127.0.0.1');
  });

  it('refuses an entry that is no address or range, naming the variable', () => {
    expect(() => parseTrustedProxies('proxy.internal')).toThrow(/TRUSTED_PROXIES/);
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(/not an IP address or CIDR range/);
    expect(parseTrustedProxies(undefined)).toEqual([]);
  });
});
