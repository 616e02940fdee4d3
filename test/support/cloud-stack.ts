import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAwsCredentialServer, startGoogleTokenServer, type RunningAwsCredentialServer, type RunningGoogleTokenServer } from '../../apps/simulator/src';
import { adminCall } from './gateway-process';
import { startStack, type Stack } from './stack';

/** The cloud providers a cloud stack serves, each with one model, all on the simulator. */
export const CLOUD_MODELS = {
  azureChat: { slug: 'azure-chat', model: 'rosetta/azure-gpt-4o-mini', upstreamModel: 'gpt-4o-mini-prod' },
  azureResponses: { slug: 'azure-responses', model: 'rosetta/azure-codex', upstreamModel: 'gpt-5-codex-prod' },
  vertexGemini: { slug: 'vertex-gemini', model: 'rosetta/vertex-flash', upstreamModel: 'gemini-2.5-flash' },
  vertexClaude: { slug: 'vertex-claude', model: 'rosetta/vertex-haiku', upstreamModel: 'claude-haiku-4-5@20251001' },
  bedrockConverse: { slug: 'bedrock-converse', model: 'rosetta/bedrock-haiku', upstreamModel: 'us.anthropic.claude-haiku-4-5-20251001-v1:0' },
  bedrockInvoke: { slug: 'bedrock-invoke', model: 'rosetta/bedrock-invoke-haiku', upstreamModel: 'anthropic.claude-haiku-4-5-20251001-v1:0' },
} as const;

export interface CloudStack extends Stack {
  google: RunningGoogleTokenServer;
  aws: RunningAwsCredentialServer;
}

/**
 * The gateway and simulator stack with a provider on each cloud surface, added through the admin
 * API as an operator would: Azure with a key (chat and Responses), Vertex with a token from a
 * metadata server (Gemini, Claude), Bedrock with SigV4 from container credentials (Converse,
 * Claude through invoke). Nothing the AWS or Google libraries could find on the machine is read.
 */
export async function startCloudStack(): Promise<CloudStack> {
  const [google, aws] = await Promise.all([startGoogleTokenServer({ projectId: 'acme-prod' }), startAwsCredentialServer()]);
  const dir = mkdtempSync(join(tmpdir(), 'rosetta-cloud-stack-'));
  const stack = await startStack({
    GCE_METADATA_HOST: google.metadataHost,
    CLOUDSDK_CONFIG: dir,
    AWS_CONTAINER_CREDENTIALS_FULL_URI: aws.containerCredentialsUri,
    AWS_CONFIG_FILE: join(dir, 'aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(dir, 'aws-credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
  });
  const base = { base_url: stack.sim.url };
  const m = CLOUD_MODELS;
  const providers: [{ slug: string; model: string; upstreamModel: string }, Record<string, unknown>, boolean][] = [
    [m.azureChat, { platform: 'azure', protocol: 'openai', api_key: 'azure-key-000000' }, false],
    [m.azureResponses, { platform: 'azure', protocol: 'openai-responses', api_key: 'azure-key-000000' }, true],
    [m.vertexGemini, { platform: 'vertex', protocol: 'gemini', project: 'acme-prod', location: 'us-east5' }, true],
    [m.vertexClaude, { platform: 'vertex', protocol: 'anthropic', project: 'acme-prod', location: 'global' }, true],
    [m.bedrockConverse, { platform: 'bedrock', protocol: 'bedrock-converse', region: 'us-east-1' }, true],
    [m.bedrockInvoke, { platform: 'bedrock', protocol: 'anthropic', region: 'us-west-2' }, true],
  ];
  try {
    for (const [served, fields, reasoning] of providers) {
      const endpoint = { model: served.model, upstream_model: served.upstreamModel, context_length: 200000, max_completion_tokens: 16384, tools: true, vision: true, reasoning, usd_per_million_tokens: { prompt: 1, completion: 5 } };
      const put = await adminCall(stack.gateway, 'PUT', `/admin/providers/${served.slug}`, { ...base, ...fields, endpoints: [endpoint] });
      if (put.status !== 200) throw new Error(`provider ${served.slug}: ${put.status} ${JSON.stringify(put.body)}`);
    }
  } catch (error) {
    await stack.stop();
    await Promise.all([google.close(), aws.close()]);
    throw error;
  }
  return {
    ...stack,
    google,
    aws,
    stop: async () => {
      await stack.stop();
      await Promise.all([google.close(), aws.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
