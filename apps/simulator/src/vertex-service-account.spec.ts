import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GoogleGenAI } from '@google/genai';
import { gaxios } from 'google-auth-library';
import { GOOGLE_CLOUD_PLATFORM_SCOPE } from './clouds/cloud-tokens';
import { startGoogleTokenServer, type RunningGoogleTokenServer } from './clouds/google-token-server';
import { nodeFetch, useGoogleLoopback, watchOutboundHosts } from './clouds/testing/cloud-test-env';
import { startSimulator, type RunningSimulator } from './simulator';

const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const EMAIL = 'rosetta@sim-project.iam.gserviceaccount.com';

/**
 * google-auth-library 10 ignores a key file's `token_uri`: its JWT grant always posts to Google's
 * token URL. The only seam is the client's transporter, so the test gives it one whose request
 * interceptor sends that URL to the fake token endpoint instead.
 */
function loopbackTransporter(tokenUri: string): gaxios.Gaxios {
  const transporter = new gaxios.Gaxios({ fetchImplementation: nodeFetch });
  transporter.interceptors.request.add({
    resolved: async (options) => {
      if (options.url.href === GOOGLE_TOKEN_URL) options.url = new URL(tokenUri);
      return options;
    },
  });
  return transporter;
}

describe('a service-account key file (GOOGLE_APPLICATION_CREDENTIALS) against the simulator', () => {
  let sim: RunningSimulator;
  let tokens: RunningGoogleTokenServer;
  let restoreEnv: () => void;
  let outbound: ReturnType<typeof watchOutboundHosts>;
  let dir: string;

  beforeAll(async () => {
    outbound = watchOutboundHosts();
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    tokens = await startGoogleTokenServer({ serviceAccounts: { [EMAIL]: publicKey.export({ type: 'spki', format: 'pem' }).toString() } });
    sim = await startSimulator();
    dir = mkdtempSync(join(tmpdir(), 'sim-sa-'));
    const keyFile = join(dir, 'key.json');
    const key = {
      type: 'service_account',
      project_id: 'sim-project',
      private_key_id: 'sim-key-1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: EMAIL,
      client_id: '1234567890',
      token_uri: tokens.tokenUri,
    };
    writeFileSync(keyFile, JSON.stringify(key));
    restoreEnv = useGoogleLoopback(tokens.metadataHost, keyFile);
  });
  afterAll(async () => {
    restoreEnv();
    outbound.stop();
    rmSync(dir, { recursive: true, force: true });
    await Promise.all([sim.close(), tokens.close()]);
  });

  it('exchanges a signed JWT for an access token that Vertex accepts', async () => {
    const ai = new GoogleGenAI({
      vertexai: true,
      project: 'sim-project',
      location: 'europe-west4',
      httpOptions: { baseUrl: sim.url, fetch: nodeFetch },
      googleAuthOptions: { clientOptions: { transporter: loopbackTransporter(tokens.tokenUri) } },
    });
    const response = await ai.models.generateContent({ model: 'gemini-sim', contents: 'Hello from a key file' });
    expect(response.text).toBe('Simulated reply from gemini-sim: Hello from a key file');
    const issued = tokens.issued();
    expect(issued).toEqual([{ via: 'jwt-bearer', subject: EMAIL, scopes: [GOOGLE_CLOUD_PLATFORM_SCOPE], accessToken: expect.stringMatching(/^ya29\.sim\./) }]);
    const recorded = sim.requests().at(-1);
    expect([recorded?.path, recorded?.headers['authorization']]).toEqual([
      '/v1beta1/projects/sim-project/locations/europe-west4/publishers/google/models/gemini-sim:generateContent',
      `Bearer ${issued[0]?.accessToken}`,
    ]);
  });

  it('refuses an assertion signed by a key it does not know', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ iss: EMAIL, aud: GOOGLE_TOKEN_URL, scope: GOOGLE_CLOUD_PLATFORM_SCOPE, iat: now, exp: now + 3600 })}`;
    const assertion = `${unsigned}.${sign('RSA-SHA256', Buffer.from(unsigned), privateKey).toString('base64url')}`;
    const response = await fetch(tokens.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
  });

  it('never leaves loopback', () => {
    expect(outbound.hosts()).toEqual([]);
  });
});
