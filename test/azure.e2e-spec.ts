/**
 * Azure OpenAI as an upstream (issue 28, ARCHITECTURE §9): a provider with `platform: azure` is
 * called on Azure's v1 API or, with `api_version`, on its deployment paths, with the key in
 * `api-key` or an Entra ID token from the default credential chain — whatever dialect the client
 * speaks. The simulator checks Azure's paths and credentials as Azure does.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startAzureIdentityServer, startSimulator, type RunningAzureIdentityServer, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase } from './support/services';

describe('Azure OpenAI providers', () => {
  let sim: RunningSimulator;
  let identity: RunningAzureIdentityServer;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess;
  let openai: OpenAI;
  let anthropic: Anthropic;

  const endpoint = (model: string, deployment: string) =>
    `      - { model: ${model}, upstream_model: ${deployment}, context_length: 128000, max_completion_tokens: 16384, usd_per_million_tokens: { prompt: 2.5, completion: 10 } }`;

  beforeAll(async () => {
    sim = await startSimulator();
    identity = await startAzureIdentityServer();
    db = await createTestDatabase();
    const file = join(mkdtempSync(join(tmpdir(), 'rosetta-azure-')), 'providers.yaml');
    writeFileSync(file, [
      'providers:',
      '  - slug: azure-east',
      '    platform: azure',
      '    protocol: openai',
      `    base_url: ${sim.url}`,
      '    api_key_env: AZURE_OPENAI_KEY',
      '    endpoints:',
      endpoint('rosetta/azure-gpt-4o', 'gpt-4o-prod'),
      '  - slug: azure-classic',
      '    platform: azure',
      '    protocol: openai',
      '    api_version: 2024-10-21',
      `    base_url: ${sim.url}`,
      '    api_key_env: AZURE_OPENAI_KEY',
      '    endpoints:',
      endpoint('rosetta/azure-classic', 'gpt-4o-classic'),
      '  - slug: azure-entra',
      '    platform: azure',
      '    auth: azure-ad',
      '    protocol: openai',
      `    base_url: ${sim.url}`,
      '    endpoints:',
      endpoint('rosetta/azure-entra', 'gpt-4o-entra'),
    ].join('\n'));
    gateway = await startGateway({
      DATABASE_URL: db.url,
      SIMULATOR_URL: sim.url,
      PROVIDERS_FILE: file,
      AZURE_OPENAI_KEY: 'azure-key-000000',
      // App Service's managed identity, as @azure/identity's default chain finds it.
      IDENTITY_ENDPOINT: identity.identityEndpoint,
      IDENTITY_HEADER: identity.identityHeader,
    });
    const { key } = await createKey(gateway, 'enterprise');
    openai = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: key, baseURL: gateway.url, maxRetries: 0 });
  });

  afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    await identity?.close();
    await db?.drop();
  });

  const lastAzure = () => sim.requests().filter((r) => r.protocol === 'azure-openai').at(-1)!;

  it("v1 API with api-key: an OpenAI client's chat, plain and streamed, reaches /openai/v1 with the deployment as model", async () => {
    const reply = await openai.chat.completions.create({ model: 'rosetta/azure-gpt-4o', messages: [{ role: 'user', content: 'Hello Azure' }] });
    expect(reply.choices[0]!.message.content).toBe('Simulated reply from gpt-4o-prod: Hello Azure');
    expect(reply.model).toBe('rosetta/azure-gpt-4o');
    const sent = lastAzure();
    expect({ path: sent.path, model: (sent.body as any).model, key: sent.headers['api-key'], authorization: sent.headers['authorization'] ?? null })
      .toEqual({ path: '/openai/v1/chat/completions', model: 'gpt-4o-prod', key: 'azure-key-000000', authorization: null });

    const stream = await openai.chat.completions.create({ model: 'rosetta/azure-gpt-4o', messages: [{ role: 'user', content: 'Stream it' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Simulated reply from gpt-4o-prod: Stream it');
  });

  it('any dialect: an Anthropic client streams from an Azure deployment', async () => {
    const message = await anthropic.messages.stream({ model: 'rosetta/azure-gpt-4o', max_tokens: 100, messages: [{ role: 'user', content: 'From Claude’s dialect' }] }).finalMessage();
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'Simulated reply from gpt-4o-prod: From Claude’s dialect' })]);
    expect(lastAzure().path).toBe('/openai/v1/chat/completions');
  });

  it('api_version: the deployment path with ?api-version=', async () => {
    await openai.chat.completions.create({ model: 'rosetta/azure-classic', messages: [{ role: 'user', content: 'classic' }] });
    expect(lastAzure().path).toBe('/openai/deployments/gpt-4o-classic/chat/completions?api-version=2024-10-21');
  });

  it('auth: azure-ad: an Entra ID token from the managed identity, fetched once for many calls', async () => {
    for (const text of ['one', 'two', 'three']) await openai.chat.completions.create({ model: 'rosetta/azure-entra', messages: [{ role: 'user', content: text }] });
    expect(identity.issued()).toHaveLength(1);
    expect(identity.issued()[0]!.resource).toBe('https://cognitiveservices.azure.com');
    const sent = lastAzure();
    expect({ authorization: sent.headers['authorization'], key: sent.headers['api-key'] ?? null }).toEqual({ authorization: `Bearer ${identity.issued()[0]!.accessToken}`, key: null });
  });

  it("Azure's content filter: a filtered answer ends as a refusal in the client's dialect", async () => {
    sim.script({ match: 'filter-this', reply: { text: 'Partial answer', finish: 'content_filter' } });
    const reply = await openai.chat.completions.create({ model: 'rosetta/azure-gpt-4o', messages: [{ role: 'user', content: 'filter-this' }] });
    expect(reply.choices[0]!.finish_reason).toBe('content_filter');
    const message = await anthropic.messages.create({ model: 'rosetta/azure-gpt-4o', max_tokens: 100, messages: [{ role: 'user', content: 'filter-this please' }] });
    expect(message.stop_reason).toBe('refusal');
  });

  it("Azure's 400 content_filter refusal reaches the client as a 400, and never opens the deployment's circuit", async () => {
    sim.script({ match: 'refuse-this', reply: { error: { status: 400, type: 'content_filter', message: 'The prompt was filtered.' } } });
    for (let i = 0; i < 6; i++) {
      const refused = await openai.chat.completions.create({ model: 'rosetta/azure-gpt-4o', messages: [{ role: 'user', content: `refuse-this ${i}` }] }).then(() => null, (error: any) => error);
      expect({ status: refused?.status, code: refused?.code }).toEqual({ status: 400, code: 'content_filter' });
    }
    const health = (await adminCall(gateway, 'GET', '/admin/providers')).body.find((p: any) => p.slug === 'azure-east').endpoints[0].health;
    expect(health.circuit.state).toBe('closed');
    const after = await openai.chat.completions.create({ model: 'rosetta/azure-gpt-4o', messages: [{ role: 'user', content: 'still served' }] });
    expect(after.choices[0]!.message.content).toBe('Simulated reply from gpt-4o-prod: still served');
  });

  it('the admin API shows the platform and refuses what Azure cannot be', async () => {
    const listed = (await adminCall(gateway, 'GET', '/admin/providers')).body;
    expect(listed.find((p: any) => p.slug === 'azure-classic')).toMatchObject({ platform: 'azure', auth: 'api-key', api_version: '2024-10-21', configured: true });
    expect(listed.find((p: any) => p.slug === 'azure-entra')).toMatchObject({ platform: 'azure', auth: 'azure-ad', configured: true, has_api_key: false });
    const wrongProtocol = await adminCall(gateway, 'PUT', '/admin/providers/azure-bad', { platform: 'azure', protocol: 'anthropic', base_url: sim.url, api_key: 'k-000000' });
    expect(wrongProtocol).toMatchObject({ status: 400, body: { error: { param: 'protocol' } } });
    const noResource = await adminCall(gateway, 'PUT', '/admin/providers/azure-bad', { platform: 'azure', protocol: 'openai', api_key: 'k-000000' });
    expect(noResource).toMatchObject({ status: 400, body: { error: { param: 'base_url' } } });
    const stray = await adminCall(gateway, 'PUT', '/admin/providers/azure-bad', { protocol: 'openai', base_url: sim.url, api_version: '2024-10-21' });
    expect(stray).toMatchObject({ status: 400, body: { error: { param: 'api_version' } } });
  });
});
