import type { RunningSimulator } from '../apps/simulator/src';
import { CLOUD_MODELS, startCloudStack, type CloudStack } from './support/cloud-stack';
import type { GatewayProcess } from './support/gateway-process';
import { defineMatrixCases, type MatrixUpstream } from './support/matrix-cases';

/**
 * The translation matrix's cloud columns (issue 28): every client dialect against Azure OpenAI
 * (chat and Responses), Vertex AI (Gemini, and Claude through rawPredict) and Bedrock (Converse,
 * and Claude through invoke), with each cloud's credentials — an Azure key, a token from the
 * metadata server, SigV4 from container credentials — plain, streamed, in a tool loop and with
 * thinking carried across turns, exactly as the public APIs' columns are tested.
 */
const VERTEX = '/v1/projects/acme-prod/locations';
const m = CLOUD_MODELS;
const UPSTREAMS: readonly MatrixUpstream[] = [
  { protocol: 'azure-openai', reasoning: 'openai', ...m.azureChat, path: '/openai/v1/chat/completions' },
  { protocol: 'azure-openai', reasoning: 'openai-responses', ...m.azureResponses, path: '/openai/v1/responses' },
  { protocol: 'vertex-gemini', reasoning: 'gemini', ...m.vertexGemini, path: `${VERTEX}/us-east5/publishers/google/models/gemini-2.5-flash:` },
  { protocol: 'vertex-anthropic', reasoning: 'anthropic', ...m.vertexClaude, path: `${VERTEX}/global/publishers/anthropic/models/claude-haiku-4-5%4020251001:` },
  { protocol: 'bedrock-converse', reasoning: 'bedrock-converse', ...m.bedrockConverse, path: '/model/us.anthropic.claude-haiku-4-5-20251001-v1%3A0/converse' },
  { protocol: 'bedrock-anthropic', reasoning: 'anthropic', ...m.bedrockInvoke, path: '/model/anthropic.claude-haiku-4-5-20251001-v1%3A0/invoke' },
];

describe('translation matrix: 4 client dialects × the clouds (Azure, Vertex, Bedrock)', () => {
  let sim: RunningSimulator;
  let gateway: GatewayProcess;
  let key: string;
  let stack: CloudStack;

  beforeAll(async () => {
    stack = await startCloudStack();
    ({ sim, gateway, key } = stack);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  defineMatrixCases(() => ({ sim, gatewayUrl: gateway.url, key }), UPSTREAMS);
});
