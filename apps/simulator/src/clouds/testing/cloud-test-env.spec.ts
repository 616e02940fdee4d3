import { get, type RequestOptions } from 'node:http';
import { watchOutboundHosts } from './cloud-test-env';

describe('watchOutboundHosts', () => {
  it('sees a library connecting to a host by name, without the name being resolved', async () => {
    const outbound = watchOutboundHosts();
    // The lookup fails at once, so nothing leaves the machine; the request still announces its host.
    const lookup: RequestOptions['lookup'] = (_hostname, _options, callback) => setImmediate(() => callback(new Error('blocked by the test'), '', 4));
    await new Promise<void>((resolve) => get({ host: 'metadata.google.internal', port: 80, path: '/', lookup }).on('error', () => resolve()));
    await new Promise<void>((resolve) => get({ host: '127.0.0.1', port: 9, path: '/' }).on('error', () => resolve()));
    outbound.stop();
    expect(outbound.hosts()).toEqual(['metadata.google.internal']);
  });
});
