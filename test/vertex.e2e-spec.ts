/**
 * Google Vertex AI as an upstream (issue 28, ARCHITECTURE §9): a provider with `platform: vertex`
 * serves Gemini (protocol gemini) and Claude (protocol anthropic: rawPredict / streamRawPredict)
 * from a project and location, with an OAuth token from Application Default Credentials — here the
 * metadata server, as on GCE, GKE or Cloud Run — whatever dialect the client speaks.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { startGoogleTokenServer, startSimulator, type RunningGoogleTokenServer, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase } from './support/services';

describe('Vertex AI providers', () => {
  let sim: RunningSimulator;
  let google: RunningGoogleTokenServer;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess;
  let key: string;
  let openai: OpenAI;

  const endpoint = (model: string, upstream: string) =>
    `      - { model: ${model}, upstream_model: "${upstream}", context_length: 200000, max_completion_tokens: 8192, usd_per_million_tokens: { prompt: 3, completion: 15 } }`;

  beforeAll(async () => {
    sim = await startSimulator();
    google = await startGoogleTokenServer({ projectId: 'acme-prod' });
    db = await createTestDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'rosetta-vertex-'));
    const file = join(dir, 'providers.yaml');
    writeFileSync(file, [
      'providers:',
      '  - slug: vertex-gemini',
      '    platform: vertex',
      '    protocol: gemini',
      '    project: acme-prod',
      '    location: us-east5',
      `    base_url: ${sim.url}`,
      '    endpoints:',
      endpoint('rosetta/vertex-flash', 'gemini-2.5-flash'),
      '  - slug: vertex-claude',
      '    platform: vertex',
      '    protocol: anthropic',
      '    project: acme-prod',
      '    location: global',
      `    base_url: ${sim.url}`,
      '    endpoints:',
      endpoint('rosetta/vertex-sonnet', 'claude-sonnet-4-5@20250929'),
      // The catalog's Claude model on Vertex too, beside the built-in anthropic provider.
      endpoint('rosetta/claude-sonnet-4-5', 'claude-sonnet-4-5@20250929'),
    ].join('\n'));
    gateway = await startGateway({
      DATABASE_URL: db.url,
      SIMULATOR_URL: sim.url,
      PROVIDERS_FILE: file,
      // Application Default Credentials from the metadata server, and nothing else to find.
      GCE_METADATA_HOST: google.metadataHost,
      CLOUDSDK_CONFIG: dir,
    });
    ({ key } = await createKey(gateway, 'enterprise'));
    openai = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });

  afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    await google?.close();
    await db?.drop();
  });

  const last = (protocol: string) => sim.requests().filter((r) => r.protocol === protocol).at(-1)!;

  it("Gemini on Vertex: an OpenAI client's chat, plain and streamed, reaches the project's publisher path with a metadata-server token", async () => {
    const reply = await openai.chat.completions.create({ model: 'rosetta/vertex-flash', messages: [{ role: 'user', content: 'Hello Vertex' }] });
    expect(reply.choices[0]!.message.content).toBe('Simulated reply from gemini-2.5-flash: Hello Vertex');
    const sent = last('vertex-gemini');
    expect({ path: sent.path, authorization: sent.headers['authorization'], key: sent.headers['x-goog-api-key'] ?? null }).toEqual({
      path: '/v1/projects/acme-prod/locations/us-east5/publishers/google/models/gemini-2.5-flash:generateContent',
      authorization: `Bearer ${google.issued()[0]!.accessToken}`,
      key: null,
    });
    const stream = await openai.chat.completions.create({ model: 'rosetta/vertex-flash', messages: [{ role: 'user', content: 'Stream it' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Simulated reply from gemini-2.5-flash: Stream it');
    expect(last('vertex-gemini').path).toBe('/v1/projects/acme-prod/locations/us-east5/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
  });

  it('a Gemini client streams from Gemini on Vertex through the gateway', async () => {
    // Node's fetch, as the other suites give it: @google/genai's own cannot run in Jest's sandbox.
    const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gateway.url, fetch: (input, init) => fetch(input, init) } });
    let text = '';
    for await (const chunk of await ai.models.generateContentStream({ model: 'rosetta/vertex-flash', contents: 'Gemini to Vertex' })) text += chunk.text ?? '';
    expect(text).toBe('Simulated reply from gemini-2.5-flash: Gemini to Vertex');
  });

  it('Claude on Vertex: rawPredict and streamRawPredict, the model only in the URL, anthropic_version in the body', async () => {
    const anthropic = new Anthropic({ apiKey: key, baseURL: gateway.url, maxRetries: 0 });
    const message = await anthropic.messages.stream({ model: 'rosetta/vertex-sonnet', max_tokens: 100, messages: [{ role: 'user', content: 'Claude on Vertex' }] }).finalMessage();
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'Simulated reply from claude-sonnet-4-5@20250929: Claude on Vertex' })]);
    const streamed = last('vertex-anthropic');
    expect({ path: streamed.path, version: (streamed.body as any).anthropic_version, model: (streamed.body as any).model ?? null, key: streamed.headers['x-api-key'] ?? null }).toEqual({
      path: '/v1/projects/acme-prod/locations/global/publishers/anthropic/models/claude-sonnet-4-5%4020250929:streamRawPredict',
      version: 'vertex-2023-10-16',
      model: null,
      key: null,
    });
    const reply = await openai.chat.completions.create({ model: 'rosetta/vertex-sonnet', messages: [{ role: 'user', content: 'OpenAI to Claude on Vertex' }] });
    expect(reply.choices[0]!.message.content).toBe('Simulated reply from claude-sonnet-4-5@20250929: OpenAI to Claude on Vertex');
    expect(last('vertex-anthropic').path).toBe('/v1/projects/acme-prod/locations/global/publishers/anthropic/models/claude-sonnet-4-5%4020250929:rawPredict');
  });

  it("one Claude model on anthropic and on vertex: provider_order picks Vertex, and a throttled Vertex falls back to Anthropic's API", async () => {
    const ask = (content: string) =>
      openai.chat.completions.create({ model: 'rosetta/claude-sonnet-4-5', messages: [{ role: 'user', content }], provider_order: ['vertex-claude', 'anthropic'] } as OpenAI.ChatCompletionCreateParamsNonStreaming).withResponse();
    const first = await ask('Vertex first');
    expect(first.response.headers.get('x-rosetta-provider')).toBe('vertex-claude');
    sim.script({ match: 'Vertex is busy', model: 'claude-sonnet-4-5@20250929', reply: { error: { status: 429, type: 'rate_limit_error', message: 'Quota exceeded' } } });
    const second = await ask('Vertex is busy');
    expect(second.response.headers.get('x-rosetta-provider')).toBe('anthropic');
    expect(second.data.choices[0]!.message.content).toBe('Simulated reply from claude-sonnet-4-5: Vertex is busy');
    const tried = sim.requests().filter((r) => JSON.stringify(r.body).includes('Vertex is busy')).map((r) => r.protocol);
    expect(tried[0]).toBe('vertex-anthropic');
    expect(tried.at(-1)).toBe('anthropic');
  });

  it('one token for every call of the process, both providers included (the metadata server is asked once)', () => {
    expect(google.issued().map((t) => t.via)).toEqual(['metadata']);
  });

  it('a 401 from Vertex drops the cached token: the retry fetches a fresh one and the caller gets the answer', async () => {
    const before = google.issued().length;
    sim.script({ match: 'token revoked', times: 1, reply: { error: { status: 401, message: 'Request had invalid authentication credentials.' } } });
    const reply = await openai.chat.completions.create({ model: 'rosetta/vertex-flash', messages: [{ role: 'user', content: 'token revoked' }] });
    expect(reply.choices[0]!.message.content).toBe('Simulated reply from gemini-2.5-flash: token revoked');
    // One token more than the call started with (which may itself have been fetched by this call).
    expect(google.issued()).toHaveLength(Math.max(before, 1) + 1);
    const issued = google.issued().map((t) => `Bearer ${t.accessToken}`);
    const attempts = sim.requests().filter((r) => JSON.stringify(r.body).includes('token revoked')).map((r) => r.headers['authorization']);
    expect(attempts).toEqual([issued.at(-2), issued.at(-1)]);
  });

  it('the admin API shows the platform, and refuses what Vertex cannot be', async () => {
    const listed = (await adminCall(gateway, 'GET', '/admin/providers')).body;
    expect(listed.find((p: any) => p.slug === 'vertex-claude')).toMatchObject({ platform: 'vertex', project: 'acme-prod', location: 'global', configured: true, has_api_key: false });
    const noProject = await adminCall(gateway, 'PUT', '/admin/providers/vertex-bad', { platform: 'vertex', protocol: 'gemini', location: 'us-east5' });
    expect(noProject).toMatchObject({ status: 400, body: { error: { param: 'project' } } });
    const withKey = await adminCall(gateway, 'PUT', '/admin/providers/vertex-bad', { platform: 'vertex', protocol: 'gemini', project: 'acme-prod', location: 'us-east5', api_key: 'k-000000' });
    expect(withKey).toMatchObject({ status: 400, body: { error: { param: 'api_key' } } });
    const noRegion = await adminCall(gateway, 'PUT', '/admin/providers/bedrock-bad', { platform: 'bedrock', protocol: 'anthropic' });
    expect(noRegion).toMatchObject({ status: 400, body: { error: { param: 'region', message: expect.stringContaining('region is required with platform: bedrock') } } });
    const strayRegion = await adminCall(gateway, 'PUT', '/admin/providers/vertex-bad', { platform: 'vertex', protocol: 'gemini', project: 'my-project', location: 'global', region: 'us-east-1' });
    expect(strayRegion).toMatchObject({ status: 400, body: { error: { param: 'region', message: expect.stringContaining('region applies only with platform: bedrock') } } });
  });
});
