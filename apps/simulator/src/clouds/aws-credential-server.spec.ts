import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { checkSimAwsKey } from './aws-credentials';
import { startAwsCredentialServer, type RunningAwsCredentialServer } from './aws-credential-server';
import { useAwsLoopback, watchOutboundHosts } from './testing/cloud-test-env';

// The credential server as the AWS SDK's default chain finds it (the chain the gateway uses):
// the container endpoint by AWS_CONTAINER_CREDENTIALS_FULL_URI with its authorization token, and
// instance metadata (IMDSv2) by AWS_EC2_METADATA_SERVICE_ENDPOINT. Whatever it issues, the
// simulator's Bedrock surface accepts until it expires.
describe('startAwsCredentialServer', () => {
  const TOKEN = 'sim-container-token';
  let server: RunningAwsCredentialServer;
  let outbound: ReturnType<typeof watchOutboundHosts>;

  beforeAll(async () => {
    outbound = watchOutboundHosts();
    server = await startAwsCredentialServer({ expiresInSeconds: 900, containerAuthorizationToken: TOKEN, roleName: 'bedrock-role' });
  });
  afterAll(async () => {
    await server.close();
    outbound.stop();
    expect(outbound.hosts()).toEqual([]);
  });

  /** `maxRetries: 0` so a refusal fails at once instead of after the providers' retry pauses. */
  async function resolveWith(variables: Record<string, string>) {
    const restore = useAwsLoopback(variables);
    try {
      return await fromNodeProviderChain({ maxRetries: 0 })();
    } finally {
      restore();
    }
  }

  it('gives the default chain container credentials when it sends the authorization token, and records them', async () => {
    const before = server.issued().length;
    const credentials = await resolveWith({ AWS_CONTAINER_CREDENTIALS_FULL_URI: server.containerCredentialsUri, AWS_CONTAINER_AUTHORIZATION_TOKEN: TOKEN });
    expect(credentials.accessKeyId).toMatch(/^ASIASIM/);
    expect(checkSimAwsKey(credentials.accessKeyId, credentials.sessionToken)).toEqual({ ok: true, secret: credentials.secretAccessKey, denied: false });
    expect(server.issued().slice(before)).toEqual([{ via: 'container', accessKeyId: credentials.accessKeyId, expiration: credentials.expiration?.toISOString() }]);
  });

  it('reads the token from AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE too, as EKS Pod Identity sets it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-eks-'));
    try {
      writeFileSync(join(dir, 'token'), TOKEN);
      const credentials = await resolveWith({ AWS_CONTAINER_CREDENTIALS_FULL_URI: server.containerCredentialsUri, AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: join(dir, 'token') });
      expect(credentials.accessKeyId).toMatch(/^ASIASIM/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a wrong authorization token, so the chain fails and nothing is issued', async () => {
    const before = server.issued().length;
    await expect(resolveWith({ AWS_CONTAINER_CREDENTIALS_FULL_URI: server.containerCredentialsUri, AWS_CONTAINER_AUTHORIZATION_TOKEN: 'wrong' })).rejects.toThrow();
    expect(server.issued()).toHaveLength(before);
  });

  it('gives the default chain instance-profile credentials through IMDSv2', async () => {
    const credentials = await resolveWith({ AWS_EC2_METADATA_SERVICE_ENDPOINT: server.instanceMetadataEndpoint });
    expect(server.issued().at(-1)).toEqual({ via: 'instance-metadata', accessKeyId: credentials.accessKeyId, expiration: credentials.expiration?.toISOString() });
  });

  it('speaks IMDSv2: a session token by PUT, then the role, then its credentials; nothing without the token', async () => {
    const base = `${server.instanceMetadataEndpoint}/latest`;
    const token = await (await fetch(`${base}/api/token`, { method: 'PUT', headers: { 'x-aws-ec2-metadata-token-ttl-seconds': '60' } })).text();
    const withToken = { headers: { 'x-aws-ec2-metadata-token': token } };
    expect(await (await fetch(`${base}/meta-data/iam/security-credentials/`, withToken)).text()).toBe('bedrock-role');
    const role = (await (await fetch(`${base}/meta-data/iam/security-credentials/bedrock-role`, withToken)).json()) as Record<string, unknown>;
    expect(role).toMatchObject({ Code: 'Success', Type: 'AWS-HMAC', AccessKeyId: expect.stringMatching(/^ASIASIM/), Token: expect.stringMatching(/^IQoJsim/) });
    const statuses = await Promise.all([
      fetch(`${base}/api/token`).then((r) => r.status),
      fetch(`${base}/meta-data/iam/security-credentials/`).then((r) => r.status),
      fetch(`${base}/meta-data/iam/security-credentials/other-role`, withToken).then((r) => r.status),
    ]);
    expect(statuses).toEqual([405, 401, 404]);
  });
});
