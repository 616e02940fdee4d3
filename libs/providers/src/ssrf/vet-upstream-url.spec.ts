import { GatewayError } from '@rosetta/canonical';
import { closePinnedDispatchers, PinnedAgent } from './pinned-dispatcher';
import { isAllowListed, isReservedHostname, vetUpstreamUrl, type HostResolver, type ResolvedAddress, type VetUpstreamOptions } from './vet-upstream-url';

const PARAM = 'provider_configs.openai.base_url';

/** A resolver that fails the test if it is consulted. */
const noDns: HostResolver = async (host) => {
  throw new Error(`DNS must not be consulted for ${host}`);
};
const answers =
  (...list: ResolvedAddress[]): HostResolver =>
  async () =>
    list;

async function refusal(raw: string, options: VetUpstreamOptions = {}): Promise<{ type: string; status: number; param?: string; message: string }> {
  try {
    await vetUpstreamUrl(raw, { param: PARAM, resolve: noDns, ...options });
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    const e = error as GatewayError;
    return { type: e.type, status: e.status, param: e.param, message: e.message };
  }
  throw new Error(`${raw} was accepted`);
}

const refused = (why: string) => ({
  type: 'invalid_request_error',
  status: 400,
  param: PARAM,
  message: `\`${PARAM}\` is not allowed: ${why}.`,
});

async function accepted(raw: string, options: VetUpstreamOptions = {}) {
  const vetted = await vetUpstreamUrl(raw, { param: PARAM, resolve: noDns, ...options });
  expect(vetted.dispatcher).toBeInstanceOf(PinnedAgent);
  expect((vetted.dispatcher as PinnedAgent).pinned).toEqual({ host: vetted.host, address: vetted.address, family: vetted.family });
  return { href: vetted.url.href, host: vetted.host, address: vetted.address, family: vetted.family };
}

afterAll(() => closePinnedDispatchers());

describe('vetUpstreamUrl: IP literal hosts', () => {
  it.each<[string, string]>([
    // The WHATWG URL parser canonicalises every odd IPv4 spelling to dotted decimal first.
    ['https://2130706433/v1', 'loopback (127.0.0.0/8)'],
    ['https://0x7f000001/v1', 'loopback (127.0.0.0/8)'],
    ['https://0x7f.1/v1', 'loopback (127.0.0.0/8)'],
    ['https://0177.0.0.1/v1', 'loopback (127.0.0.0/8)'],
    ['https://127.1/v1', 'loopback (127.0.0.0/8)'],
    ['https://127.0.0.1./v1', 'loopback (127.0.0.0/8)'],
    ['https://0/v1', 'this network (0.0.0.0/8)'],
    ['https://0xa9fea9fe/latest/meta-data', 'cloud metadata service (169.254.169.254/32)'],
    ['https://169.254.169.254/latest/meta-data', 'cloud metadata service (169.254.169.254/32)'],
    ['https://10.0.0.7:8000/v1', 'private (10.0.0.0/8)'],
    ['https://0xc0.0xa8.1.1/', 'private (192.168.0.0/16)'],
    ['https://172.20.1.1/', 'private (172.16.0.0/12)'],
    ['https://100.64.1.1/', 'shared address space (carrier-grade NAT) (100.64.0.0/10)'],
    ['https://255.255.255.255/', 'limited broadcast (255.255.255.255/32)'],
    ['https://[::1]/v1', 'loopback (::1/128)'],
    ['https://[::]/v1', 'unspecified (::/128)'],
    ['https://[::ffff:127.0.0.1]/v1', 'loopback (127.0.0.0/8) via IPv4-mapped 127.0.0.1 (::ffff:0:0/96)'],
    ['https://[::ffff:7f00:1]/v1', 'loopback (127.0.0.0/8) via IPv4-mapped 127.0.0.1 (::ffff:0:0/96)'],
    ['https://[::127.0.0.1]/v1', 'loopback (127.0.0.0/8) via IPv4-compatible 127.0.0.1 (::/96)'],
    ['https://[64:ff9b::a9fe:a9fe]/', 'cloud metadata service (169.254.169.254/32) via NAT64 169.254.169.254 (64:ff9b::/96)'],
    ['https://[2002:a00:1::]/', 'private (10.0.0.0/8) via 6to4 10.0.0.1 (2002::/16)'],
    ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', 'loopback (127.0.0.0/8) via Teredo 127.0.0.1 (2001::/32)'],
    ['https://[fd00:ec2::254]/', 'cloud metadata service (fd00:ec2::254/128)'],
    ['https://[fe80::1]/', 'link-local (fe80::/10)'],
    ['https://[fc00::5]/', 'unique local (fc00::/7)'],
    ['https://[ff02::1]/', 'multicast (ff00::/8)'],
  ])('%s is refused without asking DNS', async (raw, reason) => {
    expect(await refusal(raw)).toEqual(refused(`the host is not a public address (${reason})`));
  });

  it('accepts public IPv4 and IPv6 literals and pins them as they are', async () => {
    expect(await accepted('https://8.8.8.8/v1')).toEqual({ href: 'https://8.8.8.8/v1', host: '8.8.8.8', address: '8.8.8.8', family: 4 });
    expect(await accepted('https://[2606:4700::1111]:8443/v1')).toEqual({
      href: 'https://[2606:4700::1111]:8443/v1',
      host: '2606:4700::1111',
      address: '2606:4700::1111',
      family: 6,
    });
    expect(await accepted('https://134744072/')).toEqual({ href: 'https://8.8.8.8/', host: '8.8.8.8', address: '8.8.8.8', family: 4 });
  });
});

describe('vetUpstreamUrl: URL shape', () => {
  it('refuses http, other schemes, userinfo and garbage', async () => {
    expect(await refusal('http://api.example.com/v1')).toEqual(refused('only https URLs are accepted'));
    expect(await refusal('http://8.8.8.8/v1')).toEqual(refused('only https URLs are accepted'));
    expect(await refusal('ftp://api.example.com/')).toEqual(refused('only https URLs are accepted'));
    expect(await refusal('file:///etc/passwd')).toEqual(refused('only https URLs are accepted'));
    expect(await refusal('https://user:pass@api.example.com/v1')).toEqual(refused('credentials in the URL are not accepted'));
    expect(await refusal('https://user@api.example.com/v1')).toEqual(refused('credentials in the URL are not accepted'));
    expect(await refusal('https://:secret@api.example.com/v1')).toEqual(refused('credentials in the URL are not accepted'));
    expect(await refusal('not a url')).toEqual({
      type: 'invalid_request_error',
      status: 400,
      param: PARAM,
      message: `\`${PARAM}\` must be an absolute URL.`,
    });
  });

  it('names base_url when no param is given', async () => {
    await expect(vetUpstreamUrl('http://api.example.com', { resolve: noDns })).rejects.toMatchObject({
      param: 'base_url',
      message: '`base_url` is not allowed: only https URLs are accepted.',
    });
  });
});

describe('vetUpstreamUrl: host names', () => {
  it.each([
    'https://localhost/v1',
    'https://LOCALHOST./v1',
    'https://api.localhost/v1',
    'https://metadata/computeMetadata/v1',
    'https://metadata.google.internal/computeMetadata/v1',
    'https://instance-data/latest',
    'https://instance-data.ec2.internal/latest',
    'https://vault.internal/',
    'https://printer.local/',
  ])('%s is refused without asking DNS', async (raw) => {
    expect(await refusal(raw)).toEqual(refused('the host name is reserved for local or metadata services'));
  });

  it('accepts a name whose every address is public and pins the first', async () => {
    const resolve = answers({ address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 }, { address: '93.184.216.34', family: 4 });
    expect(await accepted('https://api.example.com/v1', { resolve })).toEqual({
      href: 'https://api.example.com/v1',
      host: 'api.example.com',
      address: '2606:2800:220:1:248:1893:25c8:1946',
      family: 6,
    });
  });

  it('refuses a name when any address is not public, whatever the order', async () => {
    const publicFirst = answers({ address: '93.184.216.34', family: 4 }, { address: '10.1.2.3', family: 4 });
    const privateFirst = answers({ address: '169.254.169.254', family: 4 }, { address: '93.184.216.34', family: 4 });
    const mappedV6 = answers({ address: '93.184.216.34', family: 4 }, { address: '::ffff:7f00:1', family: 6 });
    expect(await refusal('https://rebind.example.com/', { resolve: publicFirst })).toEqual(
      refused('the host resolves to a non-public address (in 10.0.0.0/8)'),
    );
    expect(await refusal('https://rebind.example.com/', { resolve: privateFirst })).toEqual(
      refused('the host resolves to a non-public address (in 169.254.169.254/32)'),
    );
    expect(await refusal('https://rebind.example.com/', { resolve: mappedV6 })).toEqual(
      refused('the host resolves to a non-public address (in 127.0.0.0/8)'),
    );
  });

  it('refuses names that do not resolve or resolve to nonsense', async () => {
    const failing: HostResolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect(await refusal('https://nowhere.example/', { resolve: failing })).toEqual(refused('the host name could not be resolved'));
    expect(await refusal('https://nowhere.example/', { resolve: answers() })).toEqual(refused('the host name could not be resolved'));
    expect(await refusal('https://odd.example/', { resolve: answers({ address: 'not-an-ip', family: 4 }) })).toEqual(
      refused('the host name resolved to an invalid address'),
    );
  });

  it('passes the host name to the resolver as the URL spells it', async () => {
    const asked: string[] = [];
    const resolve: HostResolver = async (host) => {
      asked.push(host);
      return [{ address: '8.8.4.4', family: 4 }];
    };
    await vetUpstreamUrl('https://API.Example.com:8443/v1', { resolve });
    expect(asked).toEqual(['api.example.com']);
  });
});

describe('vetUpstreamUrl: operator allow-list', () => {
  it('lets an exact host use http and a private address', async () => {
    const resolve = answers({ address: '10.0.0.7', family: 4 });
    expect(await accepted('http://llm.corp.example:8000/v1', { allowHosts: ['llm.corp.example'], resolve })).toEqual({
      href: 'http://llm.corp.example:8000/v1',
      host: 'llm.corp.example',
      address: '10.0.0.7',
      family: 4,
    });
    expect(await refusal('http://other.corp.example:8000/v1', { allowHosts: ['llm.corp.example'], resolve })).toEqual(
      refused('only https URLs are accepted'),
    );
    expect(await refusal('https://other.corp.example:8000/v1', { allowHosts: ['llm.corp.example'], resolve })).toEqual(
      refused('the host resolves to a non-public address (in 10.0.0.0/8)'),
    );
  });

  it('lets a wildcard cover subdomains but not the bare suffix or look-alikes', async () => {
    const resolve = answers({ address: '192.168.5.5', family: 4 });
    const allowHosts = ['*.corp.example'];
    expect(await accepted('http://gpu1.dc2.corp.example/v1', { allowHosts, resolve })).toEqual({
      href: 'http://gpu1.dc2.corp.example/v1',
      host: 'gpu1.dc2.corp.example',
      address: '192.168.5.5',
      family: 4,
    });
    expect(await refusal('https://corp.example/v1', { allowHosts, resolve })).toEqual(
      refused('the host resolves to a non-public address (in 192.168.0.0/16)'),
    );
    expect(await refusal('https://evilcorp.example/v1', { allowHosts, resolve })).toEqual(
      refused('the host resolves to a non-public address (in 192.168.0.0/16)'),
    );
  });

  it('lets allow-listed IP literals and reserved names through, but never userinfo', async () => {
    expect(await accepted('http://10.0.0.7:8000/v1', { allowHosts: ['10.0.0.7'] })).toEqual({
      href: 'http://10.0.0.7:8000/v1',
      host: '10.0.0.7',
      address: '10.0.0.7',
      family: 4,
    });
    expect(await accepted('http://[fd00::7]/v1', { allowHosts: ['FD00:0::7'] })).toEqual({
      href: 'http://[fd00::7]/v1',
      host: 'fd00::7',
      address: 'fd00::7',
      family: 6,
    });
    expect(await accepted('https://vllm.internal/v1', { allowHosts: ['*.internal'], resolve: answers({ address: '172.17.0.2', family: 4 }) })).toEqual({
      href: 'https://vllm.internal/v1',
      host: 'vllm.internal',
      address: '172.17.0.2',
      family: 4,
    });
    expect(await refusal('http://u:p@10.0.0.7/v1', { allowHosts: ['10.0.0.7'] })).toEqual(refused('credentials in the URL are not accepted'));
  });

  it('uses the system resolver by default', async () => {
    const vetted = await vetUpstreamUrl('http://localhost:1/', { allowHosts: ['localhost'] });
    expect(['127.0.0.1', '::1']).toContain(vetted.address);
    expect({ host: vetted.host, family: vetted.family }).toEqual({ host: 'localhost', family: vetted.address === '::1' ? 6 : 4 });
  });

  it('matches allow-list entries exactly or by suffix', () => {
    expect(isAllowListed('a.example', ['A.Example.'])).toBe(true);
    expect(isAllowListed('b.a.example', ['a.example'])).toBe(false);
    expect(isAllowListed('b.a.example', ['*.a.example'])).toBe(true);
    expect(isAllowListed('a.example', ['*.a.example'])).toBe(false);
    expect(isAllowListed('xa.example', ['*.a.example'])).toBe(false);
    expect(isAllowListed('a.example', ['*'])).toBe(false);
    expect(isAllowListed('a.example', ['*.'])).toBe(false);
    expect(isAllowListed('a.example', [])).toBe(false);
    expect(isAllowListed('a.example', undefined)).toBe(false);
    expect(isReservedHostname('Metadata.Google.Internal.')).toBe(true);
    expect(isReservedHostname('internal.example.com')).toBe(false);
  });
});
