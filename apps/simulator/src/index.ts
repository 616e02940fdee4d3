export { startSimulator, type RunningSimulator, type SimulatorOptions } from './simulator';
export type {
  NeutralMessage,
  NeutralRequest,
  NeutralRole,
  NeutralTool,
  NeutralToolChoice,
  NeutralToolResult,
  ReplyPlan,
  ReplySource,
  Script,
  SimError,
  SimFault,
  SimFaultKind,
  SimFinish,
  SimReply,
  SimThinking,
  SimToolCall,
  SimUsage,
} from './reply-plan';
export { defaultThinkingText, planReply } from './reply-plan';
export { countInputTokens, tokenize } from './reply-limits';
export type { CacheRetention, CacheSegment, CacheTtl, CacheWrite, PromptCacheOutcome, PromptCacheQuery } from './prompt-cache/prompt-cache-types';
export type { Clock } from './prompt-cache/prompt-cache-store';
export { SIGNATURE_SECRET, thinkingSignature, verifyThinkingSignature, type SignedProtocol } from './signatures';
export { parseScript, parseSimReply, SimReplyError } from './parse-sim-reply';
export { synthesiseArguments } from './synthesise-arguments';
export { GUARD_TRIGGERS, guardReply, isSimLlamaGuard, isSimRubricGuard } from './guard-replies';
export type { RecordedProtocol, RecordedRequest } from './request-recorder';
export type { ProtocolModule, SimExchange, SimProtocol, SimSettings } from './protocols/protocol-module';
export { SIMULATED_MODELS, openAiProtocol } from './protocols/openai';
export { anthropicProtocol } from './protocols/anthropic';
export { geminiProtocol } from './protocols/gemini';
export { GARBAGE_TEXT } from './fault-injection';
export { openAiEmbeddingsProtocol } from './protocols/openai-embeddings';
export { geminiEmbeddingsProtocol } from './protocols/gemini-embeddings';
export { DEFAULT_DIMENSIONS, acceptsDimensions, embeddingInputTokens, float32Base64, nativeDimensions, simulatedEmbedding, type EmbeddingFlavour, type EmbeddingSpec } from './embedding-vectors';
export type { CloudProtocol } from './protocols/protocol-module';
export { AZURE_COGNITIVE_SERVICES, GOOGLE_CLOUD_PLATFORM_SCOPE, mintAccessToken } from './clouds/cloud-tokens';
export { startGoogleTokenServer, type GoogleTokenServerOptions, type IssuedGoogleToken, type RunningGoogleTokenServer } from './clouds/google-token-server';
export { startAzureIdentityServer, type AzureIdentityServerOptions, type IssuedAzureToken, type RunningAzureIdentityServer } from './clouds/azure-identity-server';
export { VERTEX_ANTHROPIC_VERSION, vertexAnthropicProtocol } from './clouds/vertex-anthropic';
export { vertexGeminiProtocol } from './clouds/vertex-gemini';
export { AZURE_API_VERSIONS, azureOpenAiProtocol } from './clouds/azure-openai';
export { mintSimAwsTemporaryCredentials, simAwsDeniedCredentials, simAwsSecret, simAwsStaticCredentials, type SimAwsCredentials, type SimAwsTemporaryCredentials } from './clouds/aws-credentials';
export { startAwsCredentialServer, type AwsCredentialServerOptions, type IssuedAwsCredentials, type RunningAwsCredentialServer } from './clouds/aws-credential-server';
export { computeSigV4, verifySigV4, type SigV4Computation, type SigV4Request, type SigV4Result, type SigV4Signing } from './clouds/sigv4-verifier';
export { BEDROCK_ANTHROPIC_VERSION, bedrockAnthropicProtocol } from './clouds/bedrock-anthropic';
export { bedrockConverseProtocol } from './clouds/bedrock-converse';
