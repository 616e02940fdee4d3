import { existsSync } from 'node:fs';
import { get, type RequestOptions } from 'node:http';
import { dirname } from 'node:path';
import { setEnv, useAwsLoopback, watchOutboundHosts } from './cloud-test-env';

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

describe('useAwsLoopback', () => {
  it('clears every AWS_* variable but those given, points the files at an empty directory, and restores all', () => {
    const restoreOuter = setEnv({ AWS_PROFILE: 'someones-profile', AWS_ENDPOINT_URL_BEDROCK_RUNTIME: 'https://bedrock.example', AWS_REGION: 'eu-west-1' });
    try {
      const restore = useAwsLoopback({ AWS_REGION: 'us-east-1' });
      const configDir = dirname(process.env['AWS_CONFIG_FILE'] ?? '');
      const aws = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('AWS_')));
      expect(aws).toEqual({ AWS_REGION: 'us-east-1', AWS_EC2_METADATA_DISABLED: 'true', AWS_CONFIG_FILE: `${configDir}/config`, AWS_SHARED_CREDENTIALS_FILE: `${configDir}/credentials` });
      expect(existsSync(configDir)).toBe(true);
      restore();
      expect([process.env['AWS_PROFILE'], process.env['AWS_ENDPOINT_URL_BEDROCK_RUNTIME'], process.env['AWS_REGION'], existsSync(configDir)]).toEqual(['someones-profile', 'https://bedrock.example', 'eu-west-1', false]);
    } finally {
      restoreOuter();
    }
  });
});
