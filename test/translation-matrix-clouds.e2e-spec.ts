import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAwsCredentialServer, startGoogleTokenServer, type RunningAwsCredentialServer, type RunningGoogleTokenServer, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, type GatewayProcess } from './support/gateway-process';
import { defineMatrixCases, type MatrixUpstream } from './support/matrix-cases';
import { startStack, type Stack } from './support/stack';

/**
 * The translation matrix's cloud columns (issue 28): every client dialect against Azure OpenAI
 * (chat and Responses), Vertex AI (Gemini, and Claude through rawPredict) and Bedrock (Converse,
 * and Claude through invoke), with each cloud's credentials — an Azure key, a token from the
 * metadata server, SigV4 from container credentials — plain, streamed, in a tool loop and with
 * thinking carried across turns, exactly as the public APIs' columns are tested.
 */
const VERTEX = '/v1/projects/acme-prod/locations';
const UPSTREAMS: readonly MatrixUpstream[] = [
  { protocol: 'azure-openai', reasoning: 'openai', model: 'rosetta/azure-gpt-4o-mini', upstreamModel: 'gpt-4o-mini-prod', path: '/openai/v1/chat/completions' },
  { protocol: 'azure-openai', reasoning: 'openai-responses', model: 'rosetta/azure-codex', upstreamModel: 'gpt-5-codex-prod', path: '/openai/v1/responses' },
  { protocol: 'vertex-gemini', reasoning: 'gemini', model: 'rosetta/vertex-flash', upstreamModel: 'gemini-2.5-flash', path: `${VERTEX}/us-east5/publishers/google/models/gemini-2.5-flash:` },
  { protocol: 'vertex-anthropic', reasoning: 'anthropic', model: 'rosetta/vertex-haiku', upstreamModel: 'claude-haiku-4-5@20251001', path: `${VERTEX}/global/publishers/anthropic/models/claude-haiku-4-5%4020251001:` },
  { protocol: 'bedrock-converse', reasoning: 'bedrock-converse', model: 'rosetta/bedrock-haiku', upstreamModel: 'us.anthropic.claude-haiku-4-5-20251001-v1:0', path: '/model/us.anthropic.claude-haiku-4-5-20251001-v1%3A0/converse' },
  { protocol: 'bedrock-anthropic', reasoning: 'anthropic', model: 'rosetta/bedrock-invoke-haiku', upstreamModel: 'anthropic.claude-haiku-4-5-20251001-v1:0', path: '/model/anthropic.claude-haiku-4-5-20251001-v1%3A0/invoke' },
];

function provider(slug: string, fields: Record<string, unknown>, model: string, upstreamModel: string, reasoning: boolean) {
  return [slug, { ...fields, endpoints: [{ model, upstream_model: upstreamModel, context_length: 200000, max_completion_tokens: 16384, tools: true, vision: true, reasoning, usd_per_million_tokens: { prompt: 1, completion: 5 } }] }] as const;
}

describe('translation matrix: 4 client dialects × the clouds (Azure, Vertex, Bedrock)', () => {
  let sim: RunningSimulator;
  let gateway: GatewayProcess;
  let key: string;
  let stack: Stack;
  let google: RunningGoogleTokenServer;
  let aws: RunningAwsCredentialServer;

  beforeAll(async () => {
    [google, aws] = await Promise.all([startGoogleTokenServer({ projectId: 'acme-prod' }), startAwsCredentialServer()]);
    const dir = mkdtempSync(join(tmpdir(), 'rosetta-cloud-matrix-'));
    stack = await startStack({
      GCE_METADATA_HOST: google.metadataHost,
      CLOUDSDK_CONFIG: dir,
      AWS_CONTAINER_CREDENTIALS_FULL_URI: aws.containerCredentialsUri,
      AWS_CONFIG_FILE: join(dir, 'aws-config'),
      AWS_SHARED_CREDENTIALS_FILE: join(dir, 'aws-credentials'),
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    ({ sim, gateway, key } = stack);
    const base = { base_url: sim.url };
    const providers = [
      provider('azure-chat', { ...base, platform: 'azure', protocol: 'openai', api_key: 'azure-key-000000' }, 'rosetta/azure-gpt-4o-mini', 'gpt-4o-mini-prod', false),
      provider('azure-responses', { ...base, platform: 'azure', protocol: 'openai-responses', api_key: 'azure-key-000000' }, 'rosetta/azure-codex', 'gpt-5-codex-prod', true),
      provider('vertex-gemini', { ...base, platform: 'vertex', protocol: 'gemini', project: 'acme-prod', location: 'us-east5' }, 'rosetta/vertex-flash', 'gemini-2.5-flash', true),
      provider('vertex-claude', { ...base, platform: 'vertex', protocol: 'anthropic', project: 'acme-prod', location: 'global' }, 'rosetta/vertex-haiku', 'claude-haiku-4-5@20251001', true),
      provider('bedrock-converse', { ...base, platform: 'bedrock', protocol: 'bedrock-converse', region: 'us-east-1' }, 'rosetta/bedrock-haiku', 'us.anthropic.claude-haiku-4-5-20251001-v1:0', true),
      provider('bedrock-invoke', { ...base, platform: 'bedrock', protocol: 'anthropic', region: 'us-west-2' }, 'rosetta/bedrock-invoke-haiku', 'anthropic.claude-haiku-4-5-20251001-v1:0', true),
    ];
    for (const [slug, body] of providers) {
      const put = await adminCall(gateway, 'PUT', `/admin/providers/${slug}`, body);
      if (put.status !== 200) throw new Error(`provider ${slug}: ${put.status} ${JSON.stringify(put.body)}`);
    }
  });

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([google?.close(), aws?.close()]);
  });

  defineMatrixCases(() => ({ sim, gatewayUrl: gateway.url, key }), UPSTREAMS);
});
