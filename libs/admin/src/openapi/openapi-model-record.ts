/**
 * The model record of `GET /v1/models/{id}` (the interface's registry record), with the types the
 * gateway serves: prices and provider flags are strings, limits integers. The only nulls are the
 * fields an embedding model has no value for, marked where they occur.
 */
import type { Json } from './openapi-parts';

const string: Json = { type: 'string' };
const integer: Json = { type: 'integer' };
const strings = (names: readonly string[], description: string): Json => ({
  type: 'object',
  required: [...names],
  properties: Object.fromEntries(names.map((name) => [name, { type: 'string', description }])),
});

const PROVIDER_PRICES = ['prompt_cost', 'completion_cost', 'image_cost', 'request_cost', 'input_cache_read_cost', 'input_cache_write_cost', 'image_output_cost', 'audio_cost', 'input_audio_cache_cost', 'discount'];
const MODEL_PRICES = ['prompt_cost', 'completion_cost', 'image_cost', 'request_cost', 'internal_reasoning_cost', 'web_search_cost'];

const PROVIDER: Json = {
  type: 'object',
  required: ['name', 'provider_name', 'provider_model_name', 'quantization', 'tag', 'is_zdr', 'supports_implicit_caching', 'uptime_last_30m', 'context_length', 'max_completion_tokens', 'max_prompt_tokens', 'status', 'pricing'],
  properties: {
    name: string,
    provider_name: string,
    provider_model_name: { type: 'string', description: "The upstream's own model id" },
    quantization: string,
    tag: { type: 'string', description: '<provider>/<quantization>' },
    is_zdr: { type: 'string', enum: ['true', 'false'] },
    supports_implicit_caching: { type: 'string', enum: ['true', 'false'] },
    uptime_last_30m: {
      type: 'string',
      pattern: '^\\d{1,3}\\.\\d{2}$',
      description: 'Percent of calls that succeeded over the last 30 minutes, two decimals; "100.00" when there were none (no failure seen, as `status` 0 says)',
    },
    context_length: integer,
    max_completion_tokens: { type: ['integer', 'null'], description: 'null for an embedding model' },
    max_prompt_tokens: integer,
    status: { type: 'integer', enum: [0, 1, 2, 3], description: '0 operational, 1 degraded, 2 down, 3 disabled' },
    dimensions: { type: ['integer', 'null'], description: 'Embedding models only: the vector size (null: unknown)' },
    custom_dimensions: { type: 'boolean', description: 'Embedding models only: whether a smaller size may be asked for' },
    pricing: strings(PROVIDER_PRICES, 'USD per token (per request, per image); a decimal string'),
  },
};

export const MODEL_RECORD_SCHEMAS: Record<string, Json> = {
  ModelRecordProvider: PROVIDER,
  ModelRecord: {
    type: 'object',
    required: ['id', 'model_name', 'display_name', 'author', 'description', 'context_length', 'created_at', 'last_updated', 'architecture', 'default_parameters', 'pricing', 'providers', 'supported_parameters', 'top_provider'],
    properties: {
      id: { type: 'integer', description: 'The database id; the record is also found by it' },
      model_name: { type: 'string', description: 'rosetta/<name>' },
      display_name: string,
      author: string,
      description: string,
      context_length: integer,
      created_at: { type: 'string', format: 'date-time' },
      last_updated: { type: 'string', format: 'date-time' },
      kind: { type: 'string', enum: ['chat', 'embedding'] },
      architecture: {
        type: 'object',
        required: ['instruct_type', 'modality', 'tokenizer', 'modalities'],
        properties: {
          instruct_type: { type: ['string', 'null'], description: 'null for an embedding model' },
          modality: string,
          tokenizer: string,
          modalities: { type: 'array', items: { type: 'object', required: ['modality_type', 'modality_value'], properties: { modality_type: { type: 'string', enum: ['input', 'output'] }, modality_value: string } } },
        },
      },
      default_parameters: {
        type: 'object',
        required: ['parameters'],
        properties: {
          parameters: {
            type: 'object',
            description: 'Chat models: temperature, top_p, max_tokens; embedding models: dimensions',
            properties: { temperature: { type: 'number' }, top_p: { type: 'number' }, max_tokens: { type: ['integer', 'null'] }, dimensions: { type: ['integer', 'null'] } },
          },
        },
      },
      pricing: strings(MODEL_PRICES, 'USD per token (per request, per image) of the endpoint with the largest context; a decimal string'),
      providers: { type: 'array', items: { $ref: '#/components/schemas/ModelRecordProvider' } },
      supported_parameters: { type: 'array', items: { type: 'object', required: ['parameter_name'], properties: { parameter_name: string } } },
      top_provider: {
        type: 'object',
        required: ['context_length', 'is_moderated', 'max_completion_tokens'],
        properties: { context_length: integer, is_moderated: { type: 'string', enum: ['true', 'false'] }, max_completion_tokens: { type: ['integer', 'null'], description: 'null for an embedding model' } },
      },
    },
  },
};
