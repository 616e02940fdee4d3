/**
 * The built-in cloud providers (ARCHITECTURE §9): BEDROCK_REGION turns on `bedrock` (Converse) for
 * the catalog models Bedrock sells, with their Bedrock ids and prices; VERTEX_PROJECT (with
 * VERTEX_LOCATION, default global) turns on `vertex` (Gemini) and `vertex-anthropic` (Claude).
 * Unset, they stay off and say which variable turns them on. `*_BASE_URL` points them at the
 * simulator here, as an operator points them at a VPC or Private Service Connect endpoint.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { simAwsStaticCredentials, startGoogleTokenServer, startSimulator, type RunningGoogleTokenServer, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase } from './support/services';

describe('built-in cloud providers from the environment', () => {
  let sim: RunningSimulator;
  let google: RunningGoogleTokenServer;
  const databases: { drop(): Promise<void> }[] = [];
  const gateways: GatewayProcess[] = [];

  beforeAll(async () => {
    [sim, google] = await Promise.all([startSimulator(), startGoogleTokenServer({ projectId: 'acme-prod' })]);
  });

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop()));
    await Promise.all([sim?.close(), google?.close(), ...databases.map((d) => d.drop())]);
  });

  async function gatewayWith(env: Record<string, string>): Promise<GatewayProcess> {
    const db = await createTestDatabase();
    databases.push(db);
    const dir = mkdtempSync(join(tmpdir(), 'rosetta-cloud-builtins-'));
    const gateway = await startGateway({ DATABASE_URL: db.url, SIMULATOR_URL: sim.url, CLOUDSDK_CONFIG: dir, AWS_CONFIG_FILE: join(dir, 'c'), AWS_SHARED_CREDENTIALS_FILE: join(dir, 'k'), AWS_EC2_METADATA_DISABLED: 'true', ...env });
    gateways.push(gateway);
    return gateway;
  }

  it('unset, the cloud built-ins are off and say which variable turns them on', async () => {
    const gateway = await gatewayWith({});
    const listed = (await adminCall(gateway, 'GET', '/admin/providers')).body as { slug: string; configured: boolean; to_configure?: string }[];
    const cloud = listed.filter((p) => ['bedrock', 'vertex', 'vertex-anthropic'].includes(p.slug)).map((p) => [p.slug, p.configured, p.to_configure]);
    expect(cloud).toEqual([
      ['bedrock', false, 'set BEDROCK_REGION'],
      ['vertex', false, 'set VERTEX_PROJECT'],
      ['vertex-anthropic', false, 'set VERTEX_PROJECT'],
    ]);
  });

  it('BEDROCK_REGION and VERTEX_PROJECT serve the catalog models through the clouds, with their cloud ids and prices', async () => {
    const aws = simAwsStaticCredentials('BUILTIN');
    const gateway = await gatewayWith({
      BEDROCK_REGION: 'eu-central-1',
      BEDROCK_BASE_URL: sim.url,
      AWS_ACCESS_KEY_ID: aws.accessKeyId,
      AWS_SECRET_ACCESS_KEY: aws.secretAccessKey,
      VERTEX_PROJECT: 'acme-prod',
      VERTEX_BASE_URL: sim.url,
      GCE_METADATA_HOST: google.metadataHost,
    });
    const { key } = await createKey(gateway, 'enterprise');
    const openai = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const ask = (model: string, provider: string, content: string) =>
      openai.chat.completions.create({ model, messages: [{ role: 'user', content }], provider_only: [provider] } as OpenAI.ChatCompletionCreateParamsNonStreaming).withResponse();

    const bedrock = await ask('rosetta/claude-sonnet-4-5', 'bedrock', 'to Bedrock');
    expect(bedrock.data.choices[0]!.message.content).toBe('Simulated reply from global.anthropic.claude-sonnet-4-5-20250929-v1:0: to Bedrock');
    const sentToBedrock = sim.requests().at(-1)!;
    expect([sentToBedrock.protocol, sentToBedrock.path]).toEqual(['bedrock-converse', '/model/global.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse']);
    expect(sentToBedrock.headers['authorization']).toContain(`Credential=${aws.accessKeyId}/`);
    expect(sentToBedrock.headers['authorization']).toContain('/eu-central-1/bedrock/aws4_request');
    const usage = bedrock.data.usage!;
    expect(Number(bedrock.response.headers.get('x-rosetta-cost-usd'))).toBeCloseTo((usage.prompt_tokens * 3 + usage.completion_tokens * 15) / 1e6, 12);

    const gemini = await ask('rosetta/gemini-2.5-flash', 'vertex', 'to Vertex Gemini');
    expect(gemini.data.choices[0]!.message.content).toBe('Simulated reply from gemini-2.5-flash: to Vertex Gemini');
    expect(sim.requests().at(-1)!.path).toBe('/v1/projects/acme-prod/locations/global/publishers/google/models/gemini-2.5-flash:generateContent');

    const claude = await ask('rosetta/claude-haiku-4-5', 'vertex-anthropic', 'to Vertex Claude');
    expect(claude.data.choices[0]!.message.content).toBe('Simulated reply from claude-haiku-4-5@20251001: to Vertex Claude');
    expect(sim.requests().at(-1)!.path).toBe('/v1/projects/acme-prod/locations/global/publishers/anthropic/models/claude-haiku-4-5%4020251001:rawPredict');

    const listed = (await adminCall(gateway, 'GET', '/admin/providers')).body as Record<string, unknown>[];
    expect(listed.find((p) => p['slug'] === 'bedrock')).toMatchObject({ platform: 'bedrock', region: 'eu-central-1', configured: true, base_url: sim.url });
    expect(listed.find((p) => p['slug'] === 'vertex')).toMatchObject({ platform: 'vertex', project: 'acme-prod', location: 'global', configured: true });
  });

  it('refuses a malformed BEDROCK_REGION at start, naming the variable', async () => {
    await expect(gatewayWith({ BEDROCK_REGION: 'Frankfurt' })).rejects.toThrow(/BEDROCK_REGION.*must be an AWS region such as us-east-1/);
  });
});
