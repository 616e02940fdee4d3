/**
 * The gateway's cloud credentials against real token services on loopback (the simulator's fake
 * GCE metadata server and App Service managed-identity endpoint): google-auth-library and
 * @azure/identity do the exchange, the gateway caches the token for every request and refreshes
 * it before it expires — never a token fetch per request (issue 28).
 */
import { ManagedIdentityCredential } from '@azure/identity';
import { GoogleAuth } from 'google-auth-library';
import { AzureAdToken, credentialFailure, GoogleAccessToken } from '../libs/providers/src';
import { startAzureIdentityServer, startGoogleTokenServer } from '../apps/simulator/src';
import { setEnv, useGoogleLoopback, watchOutboundHosts } from '../apps/simulator/src/clouds/testing/cloud-test-env';


describe('cloud credentials', () => {
  let outbound: ReturnType<typeof watchOutboundHosts>;
  beforeAll(() => { outbound = watchOutboundHosts(); });
  afterAll(() => {
    outbound.stop();
  });
  afterEach(() => expect(outbound.hosts()).toEqual([]));

  it('Vertex: one metadata-server token serves every call until it nears expiry', async () => {
    const server = await startGoogleTokenServer({ expiresInSeconds: 3600 });
    const restore = useGoogleLoopback(server.metadataHost);
    try {
      const credential = new GoogleAccessToken(new GoogleAuth({ scopes: ['https://www.googleapis.com/auth/cloud-platform'] }));
      const sent = await Promise.all(Array.from({ length: 20 }, () => credential.headers()));
      expect(server.issued()).toHaveLength(1);
      expect(new Set(sent.map((h) => h['authorization']))).toEqual(new Set([`Bearer ${server.issued()[0]!.accessToken}`]));
      expect(server.issued()[0]).toMatchObject({ via: 'metadata', scopes: ['https://www.googleapis.com/auth/cloud-platform'] });
    } finally {
      restore();
      await server.close();
    }
  });

  it('Vertex: a short-lived token is replaced before it expires, and a refused one on demand', async () => {
    const server = await startGoogleTokenServer({ expiresInSeconds: 2 });
    const restore = useGoogleLoopback(server.metadataHost);
    try {
      const credential = new GoogleAccessToken(new GoogleAuth({ scopes: ['https://www.googleapis.com/auth/cloud-platform'] }), { minimumValidityMs: 0 });
      const first = await credential.headers();
      credential.invalidate(); // as after the upstream's 401
      const second = await credential.headers();
      expect(server.issued()).toHaveLength(2);
      expect(second['authorization']).toBe(`Bearer ${server.issued()[1]!.accessToken}`);
      expect(second['authorization']).not.toBe(first['authorization']);
    } finally {
      restore();
      await server.close();
    }
  });

  it('Azure: the default chain finds the managed identity; one token for many calls, for the Cognitive Services scope', async () => {
    const identity = await startAzureIdentityServer({ expiresInSeconds: 3600 });
    const restore = setEnv({ IDENTITY_ENDPOINT: identity.identityEndpoint, IDENTITY_HEADER: identity.identityHeader, MSI_ENDPOINT: undefined, IMDS_ENDPOINT: undefined, AZURE_CLIENT_ID: undefined, AZURE_TENANT_ID: undefined, AZURE_CLIENT_SECRET: undefined, AZURE_FEDERATED_TOKEN_FILE: undefined });
    try {
      const credential = new AzureAdToken();
      const sent = await Promise.all(Array.from({ length: 10 }, () => credential.headers()));
      expect(identity.issued()).toHaveLength(1);
      expect(identity.issued()[0]!.resource).toBe('https://cognitiveservices.azure.com');
      expect(new Set(sent.map((h) => h['authorization']))).toEqual(new Set([`Bearer ${identity.issued()[0]!.accessToken}`]));
    } finally {
      restore();
      await identity.close();
    }
  });

  it('a credential that cannot be had is an upstream error naming the provider and the cause, with no token in it', async () => {
    const identity = await startAzureIdentityServer({ identityHeader: 'right-header' });
    const restore = setEnv({ IDENTITY_ENDPOINT: identity.identityEndpoint, IDENTITY_HEADER: 'wrong-header', MSI_ENDPOINT: undefined, IMDS_ENDPOINT: undefined, AZURE_CLIENT_ID: undefined, AZURE_TENANT_ID: undefined, AZURE_CLIENT_SECRET: undefined, AZURE_FEDERATED_TOKEN_FILE: undefined });
    try {
      // Another identity than the test above's (MSAL keeps managed-identity tokens process-wide);
      // MSAL retries the refusal with back-off, so the call gives up at fetchTimeoutMs.
      const credential = new AzureAdToken(new ManagedIdentityCredential({ clientId: 'user-assigned-other' }), { fetchTimeoutMs: 1_000 });
      const cause = await credential.headers().then(() => undefined, (error: unknown) => error);
      expect(cause).toBeInstanceOf(Error);
      const error = credentialFailure('azure-east', credential.describe, cause);
      expect({ type: error.type, status: error.status, retryable: error.retryable, code: error.code }).toEqual({ type: 'upstream_error', status: 502, retryable: true, code: 'upstream_credentials' });
      expect(error.message).toBe("Upstream service error: provider 'azure-east' could not get credentials (azure entra id (default credential chain)): the token service did not answer within 1000 ms");
      expect(error.message).not.toContain('wrong-header');
    } finally {
      restore();
      await identity.close();
    }
  });

  it('a cause that quotes a token or secret is redacted', () => {
    const error = credentialFailure('vertex', 'google application default credentials', new Error('refused Bearer ya29.abcdef token=xyz123 secret: s3cr3t'));
    expect(error.message).toContain('Bearer [redacted]');
    expect(error.message).not.toMatch(/ya29|xyz123|s3cr3t/);
  });
});
