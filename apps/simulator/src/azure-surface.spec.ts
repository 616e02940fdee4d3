import { startAzureIdentityServer, type RunningAzureIdentityServer } from './clouds/azure-identity-server';
import { AZURE_COGNITIVE_SERVICES, mintAccessToken } from './clouds/cloud-tokens';
import { startSimulator, type RunningSimulator } from './simulator';

const BAD_KEY =
  'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.';
const BAD_TOKEN = 'Unauthorized. Access token is missing, invalid, audience is incorrect (https://cognitiveservices.azure.com), or have expired.';

describe('the Azure OpenAI surface', () => {
  let sim: RunningSimulator;
  const chat = { model: 'gpt-4o-prod', messages: [{ role: 'user', content: 'Hi' }] };
  const post = async (path: string, body: unknown, headers: Record<string, string> = { 'api-key': 'k' }) => {
    const response = await fetch(`${sim.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.reset());

  it('answers the v1 API without api-version, the body naming the deployment, and records it', async () => {
    const reply = await post('/openai/v1/chat/completions', chat);
    expect([reply.status, reply.body['model'], reply.body['object']]).toEqual([200, 'gpt-4o-prod', 'chat.completion']);
    expect(sim.requests().map((r) => [r.protocol, r.path, r.headers['api-key'], r.body])).toEqual([['azure-openai', '/openai/v1/chat/completions', 'k', chat]]);
  });

  it('answers the v1 Responses and embeddings APIs', async () => {
    const responses = await post('/openai/v1/responses', { model: 'gpt-4o-prod', input: 'Hi' });
    expect([responses.status, responses.body['object'], responses.body['model']]).toEqual([200, 'response', 'gpt-4o-prod']);
    const embeddings = await post('/openai/v1/embeddings', { model: 'embed-prod', input: 'Hi', dimensions: 4 });
    expect([embeddings.status, embeddings.body['model'], (embeddings.body['data'] as { embedding: number[] }[])[0]?.embedding.length]).toEqual([200, 'embed-prod', 4]);
  });

  it('takes the deployment from a classic path over the body', async () => {
    const reply = await post('/openai/deployments/gpt-4o-eu/chat/completions?api-version=2024-10-21', chat);
    expect([reply.status, reply.body['model']]).toEqual([200, 'gpt-4o-eu']);
  });

  it.each([
    ['a classic path without api-version', '/openai/deployments/d/chat/completions', 404, { error: { code: '404', message: 'Resource not found' } }],
    ['an unknown api-version', '/openai/deployments/d/chat/completions?api-version=2019-01-01', 400, { error: { code: 'BadRequest', message: 'API version not supported' } }],
    ['a dated api-version on the v1 API', '/openai/v1/chat/completions?api-version=2024-10-21', 400, { error: { code: 'BadRequest', message: 'API version not supported' } }],
    ['an unknown path', '/openai/v1/models/x', 404, { error: { code: '404', message: 'Resource not found' } }],
  ])('refuses %s in Azure’s shape', async (_name, path, status, body) => {
    const reply = await post(path, chat);
    expect([reply.status, reply.body]).toEqual([status, body]);
  });

  it.each([
    ['no credentials', {}, BAD_KEY],
    ['an empty api-key', { 'api-key': ' ' }, BAD_KEY],
    ['an expired token', { authorization: `Bearer ${mintAccessToken('azure', AZURE_COGNITIVE_SERVICES, -1)}` }, BAD_TOKEN],
    ['a token for another resource', { authorization: `Bearer ${mintAccessToken('azure', 'https://management.azure.com', 60)}` }, BAD_TOKEN],
    ['an OpenAI-style key as a bearer', { authorization: 'Bearer sk-not-an-entra-token' }, BAD_TOKEN],
  ])('refuses %s with 401', async (_name, headers, message) => {
    const reply = await post('/openai/v1/chat/completions', chat, headers);
    expect([reply.status, reply.body]).toEqual([401, { error: { code: '401', message } }]);
  });

  it('accepts an unexpired Entra token for Cognitive Services', async () => {
    const reply = await post('/openai/v1/chat/completions', chat, { authorization: `Bearer ${mintAccessToken('azure', AZURE_COGNITIVE_SERVICES, 60)}` });
    expect(reply.status).toBe(200);
  });

  it('marks a scripted content_filter finish on the choice', async () => {
    sim.script({ match: 'filtered-plain', reply: { text: 'Cut', finish: 'content_filter' } });
    const reply = await post('/openai/v1/chat/completions', { ...chat, messages: [{ role: 'user', content: 'filtered-plain' }] });
    const choice = (reply.body['choices'] as Record<string, unknown>[])[0];
    expect([choice?.['finish_reason'], choice?.['content_filter_results']]).toEqual([
      'content_filter',
      { hate: { filtered: false, severity: 'safe' }, self_harm: { filtered: false, severity: 'safe' }, sexual: { filtered: false, severity: 'safe' }, violence: { filtered: true, severity: 'high' } },
    ]);
  });

  it('sends a scripted 429 in Azure’s envelope with retry-after', async () => {
    sim.script({ match: 'slow-down', reply: { error: { status: 429, message: 'Requests have exceeded the token rate limit.', retryAfterSeconds: 6 } } });
    const reply = await post('/openai/v1/chat/completions', { ...chat, messages: [{ role: 'user', content: 'slow-down' }] });
    expect([reply.status, reply.headers.get('retry-after'), reply.body]).toEqual([429, '6', { error: { code: '429', message: 'Requests have exceeded the token rate limit.' } }]);
  });
});

describe('the fake App Service managed-identity endpoint', () => {
  let identity: RunningAzureIdentityServer;
  beforeAll(async () => {
    identity = await startAzureIdentityServer({ identityHeader: 'secret-header', expiresInSeconds: 60 });
  });
  afterAll(() => identity.close());

  const get = async (query: string, headers: Record<string, string>) => {
    const response = await fetch(`${identity.identityEndpoint}?${query}`, { headers });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('refuses a request without the identity header', async () => {
    const reply = await get('api-version=2019-08-01&resource=https://cognitiveservices.azure.com', {});
    expect([reply.status, reply.body['message']]).toEqual([401, 'The X-IDENTITY-HEADER header is missing or wrong.']);
  });

  it('issues a token for the resource, with expires_on in epoch seconds', async () => {
    const before = Math.floor(Date.now() / 1000);
    const reply = await get('api-version=2019-08-01&resource=https://cognitiveservices.azure.com/.default', { 'x-identity-header': 'secret-header' });
    expect(reply).toEqual({
      status: 200,
      body: {
        access_token: identity.issued()[0]?.accessToken,
        expires_on: expect.stringMatching(/^\d+$/),
        resource: AZURE_COGNITIVE_SERVICES,
        token_type: 'Bearer',
        client_id: '00000000-0000-0000-0000-00000000a5e1',
      },
    });
    expect(Number(reply.body['expires_on']) - before).toBeGreaterThanOrEqual(60);
  });
});
