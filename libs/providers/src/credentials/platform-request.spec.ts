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
