import { EncodedBody } from '../http-transport';
import { platformRequest, type PlatformTarget } from './platform-request';

const call = (platform: PlatformTarget, path: string) =>
  platformRequest({ provider: 'azure-east', platform, baseUrl: 'https://res.openai.azure.com', upstreamModel: 'gpt 4o/prod', path, apiKey: 'azure-key-0000', headers: { authorization: 'Bearer azure-key-0000', 'x-request-id': 'req_1' }, body: { model: 'gpt 4o/prod' } });

describe('platformRequest (Azure OpenAI)', () => {
  it('v1 API: the protocol path under /openai/v1, the key in api-key and no Authorization', async () => {
    const v1: PlatformTarget = { kind: 'azure', auth: 'api-key' };
    expect(await Promise.all(['/chat/completions', '/responses', '/embeddings'].map((path) => call(v1, path)))).toEqual(
      ['/chat/completions', '/responses', '/embeddings'].map((path) => ({ url: `https://res.openai.azure.com/openai/v1${path}`, headers: { 'x-request-id': 'req_1', 'api-key': 'azure-key-0000' }, body: { model: 'gpt 4o/prod' } })),
    );
  });

  it('api_version: the deployment path (escaped) with ?api-version=, and /openai/responses for the Responses API', async () => {
    const dated: PlatformTarget = { kind: 'azure', auth: 'api-key', apiVersion: '2025-04-01-preview' };
    expect((await call(dated, '/chat/completions')).url).toBe('https://res.openai.azure.com/openai/deployments/gpt%204o%2Fprod/chat/completions?api-version=2025-04-01-preview');
    expect((await call(dated, '/embeddings')).url).toBe('https://res.openai.azure.com/openai/deployments/gpt%204o%2Fprod/embeddings?api-version=2025-04-01-preview');
    expect((await call(dated, '/responses')).url).toBe('https://res.openai.azure.com/openai/responses?api-version=2025-04-01-preview');
  });
});

describe('platformRequest (AWS Bedrock)', () => {
  const bedrock: PlatformTarget = { kind: 'bedrock', region: 'eu-central-1' };
  const base = 'https://bedrock-runtime.eu-central-1.amazonaws.com';
  const claude = (apiKey: string, stream: boolean) =>
    platformRequest({
      provider: 'bedrock-claude', platform: bedrock, baseUrl: base, upstreamModel: 'eu.anthropic.claude-sonnet-4-5-20250929-v1:0', path: '/v1/messages', apiKey,
      headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'context-1m-2025-08-07, oauth-2025-04-20,interleaved-thinking-2025-05-14', 'x-request-id': 'req_2' },
      body: { model: 'eu.anthropic.claude-sonnet-4-5-20250929-v1:0', max_tokens: 10, messages: [], stream },
    });

  it('Claude through invoke: the model in the URL (escaped), Bedrock\'s version and the beta flags it knows in the body, a Bedrock API key as a bearer', async () => {
    expect(await claude('ABSKkey0000', false)).toEqual({
      url: `${base}/model/eu.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke`,
      headers: { 'x-request-id': 'req_2', authorization: 'Bearer ABSKkey0000' },
      body: { anthropic_version: 'bedrock-2023-05-31', anthropic_beta: ['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14'], max_tokens: 10, messages: [] },
    });
    const streamed = await claude('ABSKkey0000', true);
    expect([streamed.url, streamed.headers['accept']]).toEqual([`${base}/model/eu.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream`, 'application/vnd.amazon.eventstream']);
  });

  it('without a key: SigV4 from the default chain (here the variables, with a session token) over the exact bytes sent', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'ASIAUNITTEST0000', AWS_SECRET_ACCESS_KEY: 'unit-secret', AWS_SESSION_TOKEN: 'unit-session-token' });
    try {
      const sent = await platformRequest({ provider: 'bedrock', platform: bedrock, baseUrl: base, upstreamModel: 'openai.gpt-oss-120b-1:0', path: '/model/openai.gpt-oss-120b-1%3A0/converse', apiKey: '', headers: { 'x-request-id': 'req_3' }, body: { messages: [] } });
      expect(sent.url).toBe(`${base}/model/openai.gpt-oss-120b-1%3A0/converse`);
      expect(sent.headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=ASIAUNITTEST0000\/\d{8}\/eu-central-1\/bedrock\/aws4_request, SignedHeaders=content-length;content-type;host;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/);
      expect(sent.headers['x-amz-security-token']).toBe('unit-session-token');
      expect(sent.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
      expect(sent.headers['content-length']).toBe('15');
      expect(sent.body).toBeInstanceOf(EncodedBody);
      expect((sent.body as EncodedBody).text).toBe('{"messages":[]}');
    } finally {
      process.env = saved;
    }
  });
});
