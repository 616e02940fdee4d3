import { GOOGLE_CLOUD_PLATFORM_SCOPE, mintAccessToken } from './clouds/cloud-tokens';
import { startGoogleTokenServer, type RunningGoogleTokenServer } from './clouds/google-token-server';
import { startSimulator, type RunningSimulator } from './simulator';

const GEMINI = '/v1/projects/p1/locations/global/publishers/google/models/gemini-sim';
const CLAUDE = '/v1/projects/p1/locations/us-east5/publishers/anthropic/models/claude-sim';
const INVALID =
  'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

function googleError(code: number, status: string, message: string, reason: string): unknown {
  const info = { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com', metadata: { service: 'aiplatform.googleapis.com' } };
  return { error: { code, message, status, details: [info] } };
}

describe('the Vertex AI surface', () => {
  let sim: RunningSimulator;
  let tokens: RunningGoogleTokenServer;
  const valid = (): string => `Bearer ${mintAccessToken('google', GOOGLE_CLOUD_PLATFORM_SCOPE, 60)}`;
  const post = async (path: string, body: unknown, authorization?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (authorization !== undefined) headers['authorization'] = authorization;
    const response = await fetch(`${sim.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const hello = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] };

  beforeAll(async () => {
    sim = await startSimulator();
    tokens = await startGoogleTokenServer();
  });
  afterAll(async () => Promise.all([sim.close(), tokens.close()]));
  beforeEach(() => sim.reset());

  it('answers Gemini on the v1 path with a valid token, and records the cloud request as sent', async () => {
    const reply = await post(`${GEMINI}:generateContent`, hello, valid());
    expect(reply.status).toBe(200);
    expect(reply.body['modelVersion']).toBe('gemini-sim');
    expect(sim.requests().map((r) => [r.protocol, r.path, r.body])).toEqual([['vertex-gemini', `${GEMINI}:generateContent`, hello]]);
  });

  it.each([
    ['no credentials', undefined, 401, googleError(401, 'UNAUTHENTICATED', 'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.', 'CREDENTIALS_MISSING')],
    ['an expired token', `Bearer ${mintAccessToken('google', GOOGLE_CLOUD_PLATFORM_SCOPE, -1)}`, 401, googleError(401, 'UNAUTHENTICATED', INVALID, 'ACCESS_TOKEN_EXPIRED')],
    ['a token no token server issued', 'Bearer ya29.real-looking-but-not-ours', 401, googleError(401, 'UNAUTHENTICATED', INVALID, 'ACCESS_TOKEN_TYPE_UNSUPPORTED')],
    ['an Azure token', `Bearer ${mintAccessToken('azure', GOOGLE_CLOUD_PLATFORM_SCOPE, 60)}`, 401, googleError(401, 'UNAUTHENTICATED', INVALID, 'ACCESS_TOKEN_TYPE_UNSUPPORTED')],
    ['a token without the cloud-platform scope', `Bearer ${mintAccessToken('google', 'https://www.googleapis.com/auth/userinfo.email', 60)}`, 403, googleError(403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT')],
  ])('refuses %s in Google’s error shape, for Gemini and Claude alike', async (_name, authorization, status, body) => {
    expect(await post(`${GEMINI}:generateContent`, hello, authorization)).toEqual({ status, body });
    expect(await post(`${CLAUDE}:rawPredict`, {}, authorization)).toEqual({ status, body });
  });

  it('answers Claude rawPredict with the model from the path', async () => {
    const reply = await post(`${CLAUDE}:rawPredict`, { anthropic_version: 'vertex-2023-10-16', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] }, valid());
    expect([reply.status, reply.body['model'], reply.body['content']]).toEqual([200, 'claude-sim', [{ type: 'text', text: 'Simulated reply from claude-sim: Hi', citations: null }]]);
  });

  it('keeps Claude\'s prompt cache per project: a renewed token reads it, another project does not', async () => {
    const body = { anthropic_version: 'vertex-2023-10-16', max_tokens: 20, system: [{ type: 'text', text: 'Stay on task. '.repeat(300), cache_control: { type: 'ephemeral' } }], messages: [{ role: 'user', content: 'Hi' }] };
    const usage = async (path: string) => (await post(`${path}:rawPredict`, body, valid())).body['usage'];
    expect(await usage(CLAUDE)).toMatchObject({ cache_creation_input_tokens: 1050, cache_read_input_tokens: 0 });
    expect(await usage(CLAUDE)).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 1050 });
    expect(await usage(CLAUDE.replace('/p1/', '/p2/'))).toMatchObject({ cache_creation_input_tokens: 1050, cache_read_input_tokens: 0 });
  });

  it('counts Claude tokens through count-tokens:rawPredict', async () => {
    const path = '/v1/projects/p1/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict';
    const reply = await post(path, { anthropic_version: 'vertex-2023-10-16', model: 'claude-sim', messages: [{ role: 'user', content: 'Hi there' }] }, valid());
    expect(reply).toEqual({ status: 200, body: { input_tokens: 2 } });
  });

  it.each([
    ['without anthropic_version', { max_tokens: 20, messages: [] }, 'anthropic_version: Field required'],
    ['with the public API version', { anthropic_version: '2023-06-01', max_tokens: 20, messages: [] }, "anthropic_version: Input should be 'vertex-2023-10-16'"],
    ['naming a model in the body', { anthropic_version: 'vertex-2023-10-16', model: 'claude-sim', max_tokens: 20, messages: [] }, 'model: Extra inputs are not permitted (on Vertex AI the model is named in the URL)'],
  ])('refuses a Claude body %s in Anthropic’s error shape', async (_name, body, message) => {
    const reply = await post(`${CLAUDE}:rawPredict`, body, valid());
    expect(reply).toEqual({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message }, request_id: expect.stringMatching(/^req_sim_/) } });
  });

  it('refuses a method the publisher does not serve', async () => {
    const reply = await post(`${GEMINI}:rawPredict`, hello, valid());
    expect(reply).toEqual({
      status: 400,
      body: { error: { code: 400, status: 'INVALID_ARGUMENT', message: 'Method rawPredict is not supported for publishers/google/models/gemini-sim; use generateContent or streamGenerateContent.' } },
    });
  });
});

describe('the fake GCE metadata server', () => {
  let tokens: RunningGoogleTokenServer;
  beforeAll(async () => {
    tokens = await startGoogleTokenServer({ projectId: 'p1', expiresInSeconds: 2 });
  });
  afterAll(() => tokens.close());

  it('refuses a request without Metadata-Flavor: Google', async () => {
    const response = await fetch(`${tokens.url}/computeMetadata/v1/project/project-id`);
    expect([response.status, await response.text()]).toEqual([403, 'Missing required header: Metadata-Flavor\n']);
  });

  it('answers the project id and short-lived tokens with the flavor header', async () => {
    const headers = { 'metadata-flavor': 'Google' };
    const project = await fetch(`${tokens.url}/computeMetadata/v1/project/project-id`, { headers });
    expect([project.headers.get('metadata-flavor'), await project.text()]).toEqual(['Google', 'p1']);
    const token = await fetch(`${tokens.url}/computeMetadata/v1/instance/service-accounts/default/token?scopes=${GOOGLE_CLOUD_PLATFORM_SCOPE}`, { headers });
    expect(await token.json()).toEqual({ access_token: tokens.issued()[0]?.accessToken, expires_in: 2, token_type: 'Bearer' });
  });
});
