/**
 * Classifies IP literals as public (routable on the Internet) or not, for the SSRF guard on
 * caller-chosen upstream base URLs (ARCHITECTURE §4.9). Pure functions, no I/O, no dependencies.
 *
 * IPv4 is checked against a deny-list of special-purpose ranges (RFC 6890 and friends). IPv6 is
 * stricter: only global unicast (2000::/3) can be public, minus its special-purpose sub-ranges,
 * and every form that embeds an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) is judged
 * by the IPv4 address it carries, so `::ffff:7f00:1` is as loopback as `127.0.0.1`.
 */

export interface IpClassification {
  family: 4 | 6;
  isPublic: boolean;
  /** The blocked range that matched (for an embedded IPv4, the IPv4 range); null when public. */
  range: string | null;
  /** Why, for people: `loopback (127.0.0.0/8)`, `public`, or with the IPv6 form that embeds it. */
  reason: string;
  /** For IPv6 forms that carry an IPv4 address (the Teredo client, deobfuscated): that address. */
  embeddedIpv4: string | null;
}

interface V4Range {
  cidr: string;
  base: number;
  bits: number;
  reason: string;
}

interface V6Range {
  cidr: string;
  base: bigint;
  bits: number;
  reason: string;
}

// Order matters: the first match wins, so narrower ranges with a more specific reason come first.
const V4_BLOCKED: readonly V4Range[] = [
  ['0.0.0.0/8', 'this network'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared address space (carrier-grade NAT)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.169.254/32', 'cloud metadata service'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation (TEST-NET-1)'],
  ['192.88.99.0/24', '6to4 relay anycast'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation (TEST-NET-2)'],
  ['203.0.113.0/24', 'documentation (TEST-NET-3)'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'limited broadcast'],
  ['240.0.0.0/4', 'reserved'],
].map(([cidr, reason]) => {
  const [base, bits] = (cidr as string).split('/') as [string, string];
  return { cidr: cidr as string, base: parseIpv4(base) as number, bits: Number(bits), reason: reason as string };
});

const V6_BLOCKED: readonly V6Range[] = [
  ['100::/64', 'discard-only'],
  ['64:ff9b:1::/48', 'local-use NAT64'],
  ['fd00:ec2::254/128', 'cloud metadata service'],
  ['fc00::/7', 'unique local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local (deprecated)'],
  ['ff00::/8', 'multicast'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
  ['2001:2::/48', 'benchmarking'],
  ['2001:10::/28', 'ORCHID (deprecated)'],
  ['2001:20::/28', 'ORCHIDv2'],
].map(([cidr, reason]) => {
  const [base, bits] = (cidr as string).split('/') as [string, string];
  return { cidr: cidr as string, base: ipv6ToBigInt(parseIpv6(base) as number[]), bits: Number(bits), reason: reason as string };
});

/** Forms whose low 32 bits are an IPv4 address, judged by that address. */
const V6_EMBEDDING_96: readonly V6Range[] = [
  ['::ffff:0:0/96', 'IPv4-mapped'],
  ['64:ff9b::/96', 'NAT64'],
  ['::/96', 'IPv4-compatible'],
].map(([cidr, reason]) => {
  const [base, bits] = (cidr as string).split('/') as [string, string];
  return { cidr: cidr as string, base: ipv6ToBigInt(parseIpv6(base) as number[]), bits: Number(bits), reason: reason as string };
});

const SIX_TO_FOUR = v6Range('2002::/16', '6to4');
const TEREDO = v6Range('2001::/32', 'Teredo');
const GLOBAL_UNICAST = v6Range('2000::/3', 'global unicast');

function v6Range(cidr: string, reason: string): V6Range {
  const [base, bits] = cidr.split('/') as [string, string];
  return { cidr, base: ipv6ToBigInt(parseIpv6(base) as number[]), bits: Number(bits), reason };
}

/**
 * Parses a canonical dotted-decimal IPv4 address (`a.b.c.d`, each 0–255, no leading zeros) to an
 * unsigned 32-bit number; anything else (octal, hex, short forms) gives null. The WHATWG URL parser
 * has already turned such forms into dotted decimal by the time a host reaches the guard.
 */
export function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

/** Formats an unsigned 32-bit number as dotted decimal. */
export function formatIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join('.');
}

/**
 * Parses an IPv6 address (without brackets; a `%zone` suffix is ignored; a dotted IPv4 tail is
 * accepted) to its eight 16-bit groups, or null when it is not one.
 */
export function parseIpv6(text: string): number[] | null {
  const zone = text.indexOf('%');
  const address = zone >= 0 ? text.slice(0, zone) : text;
  if (address.length === 0 || !/^[0-9a-fA-F:.]+$/.test(address)) return null;
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const parseSide = (side: string): number[] | null => {
    if (side === '') return [];
    const pieces = side.split(':');
    const groups: number[] = [];
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] as string;
      if (piece.includes('.')) {
        if (i !== pieces.length - 1) return null;
        const v4 = parseIpv4(piece);
        if (v4 === null) return null;
        groups.push(v4 >>> 16, v4 & 0xffff);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return null;
        groups.push(parseInt(piece, 16));
      }
    }
    return groups;
  };
  const head = parseSide(halves[0] as string);
  if (head === null) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const tail = parseSide(halves[1] as string);
  if (tail === null) return null;
  // A dotted tail may only end the address, never sit before `::`.
  if ((halves[0] as string).includes('.')) return null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

function ipv6ToBigInt(groups: number[]): bigint {
  let value = 0n;
  for (const group of groups) value = (value << 16n) | BigInt(group);
  return value;
}

function inV4(value: number, range: V4Range): boolean {
  if (range.bits === 0) return true;
  const shift = 32 - range.bits;
  return Math.floor(value / 2 ** shift) === Math.floor(range.base / 2 ** shift);
}

function inV6(value: bigint, range: V6Range): boolean {
  const shift = BigInt(128 - range.bits);
  return value >> shift === range.base >> shift;
}

function classifyV4Number(value: number): Omit<IpClassification, 'embeddedIpv4'> & { family: 4 } {
  for (const range of V4_BLOCKED) {
    if (inV4(value, range)) return { family: 4, isPublic: false, range: range.cidr, reason: `${range.reason} (${range.cidr})` };
  }
  return { family: 4, isPublic: true, range: null, reason: 'public' };
}

/** Judges an IPv6 form by the IPv4 address it embeds. */
function viaEmbedded(v4: number, form: V6Range): IpClassification {
  const inner = classifyV4Number(v4);
  const embeddedIpv4 = formatIpv4(v4);
  const via = `${form.reason} ${embeddedIpv4} (${form.cidr})`;
  return inner.isPublic
    ? { family: 6, isPublic: true, range: null, reason: `public via ${via}`, embeddedIpv4 }
    : { family: 6, isPublic: false, range: inner.range, reason: `${inner.reason} via ${via}`, embeddedIpv4 };
}

function blocked6(range: V6Range): IpClassification {
  return { family: 6, isPublic: false, range: range.cidr, reason: `${range.reason} (${range.cidr})`, embeddedIpv4: null };
}

function classifyV6Groups(groups: number[]): IpClassification {
  const value = ipv6ToBigInt(groups);
  if (value === 0n) return { family: 6, isPublic: false, range: '::/128', reason: 'unspecified (::/128)', embeddedIpv4: null };
  if (value === 1n) return { family: 6, isPublic: false, range: '::1/128', reason: 'loopback (::1/128)', embeddedIpv4: null };
  const low32 = Number(value & 0xffffffffn);
  for (const form of V6_EMBEDDING_96) {
    if (inV6(value, form)) return viaEmbedded(low32, form);
  }
  for (const range of V6_BLOCKED) {
    if (inV6(value, range)) return blocked6(range);
  }
  if (inV6(value, SIX_TO_FOUR)) {
    // 2002:AABB:CCDD::/48 carries the IPv4 address AA.BB.CC.DD in bits 16–47.
    return viaEmbedded(Number((value >> 80n) & 0xffffffffn), SIX_TO_FOUR);
  }
  if (inV6(value, TEREDO)) {
    // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC — server in bits 32–63, client obfuscated (inverted).
    const client = viaEmbedded(~low32 >>> 0, TEREDO);
    if (!client.isPublic) return client;
    const server = viaEmbedded(Number((value >> 64n) & 0xffffffffn), TEREDO);
    if (!server.isPublic) return { ...server, reason: server.reason.replace(' via Teredo ', ' via Teredo server ') };
    return client;
  }
  if (!inV6(value, GLOBAL_UNICAST)) {
    return { family: 6, isPublic: false, range: null, reason: 'not global unicast (outside 2000::/3)', embeddedIpv4: null };
  }
  return { family: 6, isPublic: true, range: null, reason: 'public', embeddedIpv4: null };
}

/** 4 or 6 for an IP literal (IPv4 in canonical dotted decimal; IPv6 without brackets), else 0. */
export function ipFamily(text: string): 0 | 4 | 6 {
  if (parseIpv4(text) !== null) return 4;
  if (parseIpv6(text) !== null) return 6;
  return 0;
}

/** Classifies an IP literal; null when the text is not one (see {@link ipFamily}). */
export function classifyIp(text: string): IpClassification | null {
  const v4 = parseIpv4(text);
  if (v4 !== null) return { ...classifyV4Number(v4), embeddedIpv4: null };
  const v6 = parseIpv6(text);
  if (v6 !== null) return classifyV6Groups(v6);
  return null;
}

/** True only for an IP literal that is publicly routable; false for non-public and non-IP text. */
export function isPublicIp(text: string): boolean {
  return classifyIp(text)?.isPublic ?? false;
}
