/**
 * The GenAI semantic-convention names the spans carry. They are still "incubating" upstream, and
 * @opentelemetry/semantic-conventions asks users to copy incubating names rather than import them
 * (its `/incubating` entry may change in a minor release); they are the values of its
 * ATTR_GEN_AI_* constants as of 1.45.
 */
export const GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name';
export const GEN_AI_REQUEST_MODEL = 'gen_ai.request.model';
export const GEN_AI_REQUEST_STREAM = 'gen_ai.request.stream';
export const GEN_AI_RESPONSE_MODEL = 'gen_ai.response.model';
export const GEN_AI_RESPONSE_ID = 'gen_ai.response.id';
export const GEN_AI_RESPONSE_FINISH_REASONS = 'gen_ai.response.finish_reasons';
export const GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK = 'gen_ai.response.time_to_first_chunk';
export const GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
export const GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
export const GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS = 'gen_ai.usage.cache_read.input_tokens';
export const GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS = 'gen_ai.usage.cache_creation.input_tokens';
export const GEN_AI_USAGE_REASONING_OUTPUT_TOKENS = 'gen_ai.usage.reasoning.output_tokens';
/** Opt-in content (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT). */
export const GEN_AI_INPUT_MESSAGES = 'gen_ai.input.messages';
export const GEN_AI_OUTPUT_MESSAGES = 'gen_ai.output.messages';
export const GEN_AI_SYSTEM_INSTRUCTIONS = 'gen_ai.system_instructions';

/** Rosetta's own attributes, under its own namespace. */
export const ROSETTA_REQUEST_ID = 'rosetta.request.id';
export const ROSETTA_DIALECT = 'rosetta.dialect';
export const ROSETTA_PROVIDER = 'rosetta.provider';
export const ROSETTA_MODEL = 'rosetta.model';
export const ROSETTA_ATTEMPT = 'rosetta.attempt';
export const ROSETTA_ATTEMPTS = 'rosetta.attempts';
export const ROSETTA_ROUTE = 'rosetta.route';

/**
 * `gen_ai.provider.name` has well-known values; a provider slug that names one of them is
 * reported under it (Gemini's is `gcp.gemini`), any other slug (an operator's own upstream) as is.
 */
const WELL_KNOWN_PROVIDERS: Readonly<Record<string, string>> = {
  gemini: 'gcp.gemini',
  mistral: 'mistral_ai',
  xai: 'x_ai',
  bedrock: 'aws.bedrock',
  vertex: 'gcp.vertex_ai',
};

export function genAiProviderName(slug: string): string {
  return WELL_KNOWN_PROVIDERS[slug] ?? slug;
}
