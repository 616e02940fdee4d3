import { classifyIp, formatIpv4, ipFamily, isPublicIp, parseIpv4, parseIpv6, type IpClassification } from './ip-ranges';

const v4Blocked = (range: string, reason: string): IpClassification => ({
  family: 4,
  isPublic: false,
  range,
  reason: `${reason} (${range})`,
  embeddedIpv4: null,
});
const v6Blocked = (range: string, reason: string): IpClassification => ({
  family: 6,
  isPublic: false,
  range,
  reason: `${reason} (${range})`,
  embeddedIpv4: null,
});
const v4Public: IpClassification = { family: 4, isPublic: true, range: null, reason: 'public', embeddedIpv4: null };
const v6Public: IpClassification = { family: 6, isPublic: true, range: null, reason: 'public', embeddedIpv4: null };

describe('classifyIp: IPv4', () => {
  it.each<[string, IpClassification]>([
    ['0.0.0.0', v4Blocked('0.0.0.0/8', 'this network')],
    ['0.255.255.255', v4Blocked('0.0.0.0/8', 'this network')],
    ['10.0.0.1', v4Blocked('10.0.0.0/8', 'private')],
    ['10.255.255.255', v4Blocked('10.0.0.0/8', 'private')],
    ['100.64.0.1', v4Blocked('100.64.0.0/10', 'shared address space (carrier-grade NAT)')],
    ['100.127.255.255', v4Blocked('100.64.0.0/10', 'shared address space (carrier-grade NAT)')],
    ['100.100.100.200', v4Blocked('100.64.0.0/10', 'shared address space (carrier-grade NAT)')],
    ['127.0.0.1', v4Blocked('127.0.0.0/8', 'loopback')],
    ['127.255.0.9', v4Blocked('127.0.0.0/8', 'loopback')],
    ['169.254.169.254', v4Blocked('169.254.169.254/32', 'cloud metadata service')],
    ['169.254.1.1', v4Blocked('169.254.0.0/16', 'link-local')],
    ['172.16.0.1', v4Blocked('172.16.0.0/12', 'private')],
    ['172.31.255.255', v4Blocked('172.16.0.0/12', 'private')],
    ['192.0.0.192', v4Blocked('192.0.0.0/24', 'IETF protocol assignments')],
    ['192.0.2.1', v4Blocked('192.0.2.0/24', 'documentation (TEST-NET-1)')],
    ['192.88.99.1', v4Blocked('192.88.99.0/24', '6to4 relay anycast')],
    ['192.168.1.1', v4Blocked('192.168.0.0/16', 'private')],
    ['198.18.0.1', v4Blocked('198.18.0.0/15', 'benchmarking')],
    ['198.19.255.255', v4Blocked('198.18.0.0/15', 'benchmarking')],
    ['198.51.100.7', v4Blocked('198.51.100.0/24', 'documentation (TEST-NET-2)')],
    ['203.0.113.9', v4Blocked('203.0.113.0/24', 'documentation (TEST-NET-3)')],
    ['224.0.0.1', v4Blocked('224.0.0.0/4', 'multicast')],
    ['239.255.255.250', v4Blocked('224.0.0.0/4', 'multicast')],
    ['240.0.0.1', v4Blocked('240.0.0.0/4', 'reserved')],
    ['255.255.255.254', v4Blocked('240.0.0.0/4', 'reserved')],
    ['255.255.255.255', v4Blocked('255.255.255.255/32', 'limited broadcast')],
  ])('%s is not public', (address, expected) => {
    expect(classifyIp(address)).toEqual(expected);
    expect(isPublicIp(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '11.0.0.1', '100.63.255.255', '100.128.0.1', '172.15.255.255', '172.32.0.1', '192.167.255.255', '198.17.255.255', '198.20.0.1', '223.255.255.255'])(
    '%s is public (including the addresses just outside blocked ranges)',
    (address) => {
      expect(classifyIp(address)).toEqual(v4Public);
      expect(isPublicIp(address)).toBe(true);
    },
  );
});

describe('classifyIp: IPv6', () => {
  it.each<[string, IpClassification]>([
    ['::', { family: 6, isPublic: false, range: '::/128', reason: 'unspecified (::/128)', embeddedIpv4: null }],
    ['::1', { family: 6, isPublic: false, range: '::1/128', reason: 'loopback (::1/128)', embeddedIpv4: null }],
    ['0:0:0:0:0:0:0:1', { family: 6, isPublic: false, range: '::1/128', reason: 'loopback (::1/128)', embeddedIpv4: null }],
    ['fc00::1', v6Blocked('fc00::/7', 'unique local')],
    ['fd12:3456:789a::1', v6Blocked('fc00::/7', 'unique local')],
    ['fd00:ec2::254', v6Blocked('fd00:ec2::254/128', 'cloud metadata service')],
    ['fe80::1', v6Blocked('fe80::/10', 'link-local')],
    ['fe80::1%eth0', v6Blocked('fe80::/10', 'link-local')],
    ['febf:ffff::1', v6Blocked('fe80::/10', 'link-local')],
    ['fec0::1', v6Blocked('fec0::/10', 'site-local (deprecated)')],
    ['ff02::1', v6Blocked('ff00::/8', 'multicast')],
    ['FF05::1:3', v6Blocked('ff00::/8', 'multicast')],
    ['2001:db8::1', v6Blocked('2001:db8::/32', 'documentation')],
    ['3fff::1', v6Blocked('3fff::/20', 'documentation')],
    ['100::1', v6Blocked('100::/64', 'discard-only')],
    ['64:ff9b:1::a00:1', v6Blocked('64:ff9b:1::/48', 'local-use NAT64')],
    ['2001:2::1', v6Blocked('2001:2::/48', 'benchmarking')],
    ['2001:10::1', v6Blocked('2001:10::/28', 'ORCHID (deprecated)')],
    ['2001:20::1', v6Blocked('2001:20::/28', 'ORCHIDv2')],
    ['4000::1', { family: 6, isPublic: false, range: null, reason: 'not global unicast (outside 2000::/3)', embeddedIpv4: null }],
    ['::ffff:0:7f00:1', { family: 6, isPublic: false, range: null, reason: 'not global unicast (outside 2000::/3)', embeddedIpv4: null }],
  ])('%s is not public', (address, expected) => {
    expect(classifyIp(address)).toEqual(expected);
    expect(isPublicIp(address)).toBe(false);
  });

  it.each(['2606:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:81c::200e', '2600::1'])('%s is public', (address) => {
    expect(classifyIp(address)).toEqual(v6Public);
    expect(isPublicIp(address)).toBe(true);
  });
});

describe('classifyIp: IPv6 forms that embed an IPv4 address are judged by it', () => {
  const embedded = (v4: string, range: string, reason: string, via: string): IpClassification => ({
    family: 6,
    isPublic: false,
    range,
    reason: `${reason} (${range}) via ${via}`,
    embeddedIpv4: v4,
  });

  it.each<[string, IpClassification]>([
    ['::ffff:127.0.0.1', embedded('127.0.0.1', '127.0.0.0/8', 'loopback', 'IPv4-mapped 127.0.0.1 (::ffff:0:0/96)')],
    ['::ffff:7f00:1', embedded('127.0.0.1', '127.0.0.0/8', 'loopback', 'IPv4-mapped 127.0.0.1 (::ffff:0:0/96)')],
    ['0:0:0:0:0:ffff:7f00:0001', embedded('127.0.0.1', '127.0.0.0/8', 'loopback', 'IPv4-mapped 127.0.0.1 (::ffff:0:0/96)')],
    ['::ffff:a9fe:a9fe', embedded('169.254.169.254', '169.254.169.254/32', 'cloud metadata service', 'IPv4-mapped 169.254.169.254 (::ffff:0:0/96)')],
    ['::ffff:10.1.2.3', embedded('10.1.2.3', '10.0.0.0/8', 'private', 'IPv4-mapped 10.1.2.3 (::ffff:0:0/96)')],
    ['::127.0.0.1', embedded('127.0.0.1', '127.0.0.0/8', 'loopback', 'IPv4-compatible 127.0.0.1 (::/96)')],
    ['::7f00:1', embedded('127.0.0.1', '127.0.0.0/8', 'loopback', 'IPv4-compatible 127.0.0.1 (::/96)')],
    ['::c0a8:101', embedded('192.168.1.1', '192.168.0.0/16', 'private', 'IPv4-compatible 192.168.1.1 (::/96)')],
    ['64:ff9b::7f00:1', embedded('127.0.0.1', '127.0.0.0/8', 'loopback', 'NAT64 127.0.0.1 (64:ff9b::/96)')],
    ['64:ff9b::169.254.169.254', embedded('169.254.169.254', '169.254.169.254/32', 'cloud metadata service', 'NAT64 169.254.169.254 (64:ff9b::/96)')],
    ['2002:7f00:1::', embedded('127.0.0.1', '127.0.0.0/8', 'loopback', '6to4 127.0.0.1 (2002::/16)')],
    ['2002:c0a8:101:1::1', embedded('192.168.1.1', '192.168.0.0/16', 'private', '6to4 192.168.1.1 (2002::/16)')],
    // RFC 4380's example: server 65.54.227.120, client 192.0.2.45 stored inverted as 3fff:fdd2.
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', embedded('192.0.2.45', '192.0.2.0/24', 'documentation (TEST-NET-1)', 'Teredo 192.0.2.45 (2001::/32)')],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', embedded('127.0.0.1', '127.0.0.0/8', 'loopback', 'Teredo 127.0.0.1 (2001::/32)')],
    ['2001:0:a00:1:8000:63bf:f7f7:f7f7', embedded('10.0.0.1', '10.0.0.0/8', 'private', 'Teredo server 10.0.0.1 (2001::/32)')],
  ])('%s is not public', (address, expected) => {
    expect(classifyIp(address)).toEqual(expected);
  });

  it.each<[string, string, string]>([
    ['::ffff:8.8.8.8', '8.8.8.8', 'IPv4-mapped 8.8.8.8 (::ffff:0:0/96)'],
    ['::ffff:808:808', '8.8.8.8', 'IPv4-mapped 8.8.8.8 (::ffff:0:0/96)'],
    ['64:ff9b::808:808', '8.8.8.8', 'NAT64 8.8.8.8 (64:ff9b::/96)'],
    ['2002:808:808::1', '8.8.8.8', '6to4 8.8.8.8 (2002::/16)'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', '8.8.8.8', 'Teredo 8.8.8.8 (2001::/32)'],
  ])('%s is public because it carries %s', (address, v4, via) => {
    expect(classifyIp(address)).toEqual({ family: 6, isPublic: true, range: null, reason: `public via ${via}`, embeddedIpv4: v4 });
  });
});

describe('IP literal parsing', () => {
  it.each(['example.com', '0177.0.0.1', '0x7f.0.0.1', '127.1', '2130706433', '1.2.3.256', '01.2.3.4', '1.2.3.4.5', '', '1::2::3', '1:2:3:4:5:6:7:8:9', '12345::1', '::ffff:1.2.3', '1.2.3.4::', 'g::1', '[::1]'])(
    '%j is not an IP literal',
    (text) => {
      expect(classifyIp(text)).toBeNull();
      expect(ipFamily(text)).toBe(0);
      expect(isPublicIp(text)).toBe(false);
    },
  );

  it('parses IPv4 to a number and back', () => {
    expect(parseIpv4('192.168.1.2')).toBe(0xc0a80102);
    expect(parseIpv4('255.255.255.255')).toBe(0xffffffff);
    expect(formatIpv4(0xc0a80102)).toBe('192.168.1.2');
    expect(formatIpv4(0xffffffff)).toBe('255.255.255.255');
  });

  it('parses IPv6 groups, with compression and a dotted tail', () => {
    expect(parseIpv6('1:2:3:4:5:6:7::')).toEqual([1, 2, 3, 4, 5, 6, 7, 0]);
    expect(parseIpv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIpv6('2606:4700::1111')).toEqual([0x2606, 0x4700, 0, 0, 0, 0, 0, 0x1111]);
    expect(parseIpv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIpv6('1:2:3:4:5:6:7:8::')).toBeNull();
    expect(ipFamily('::1')).toBe(6);
    expect(ipFamily('8.8.8.8')).toBe(4);
  });
});
