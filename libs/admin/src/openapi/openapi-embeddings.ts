/**
 * The embeddings routes of the OpenAPI document (issue 15): `POST /v1/embeddings` and Gemini's
 * `:embedContent` / `:batchEmbedContents`, built with openapi-document.ts's own helpers.
 */
import type { Json } from './openapi-parts';

interface Helpers {
  ref(name: string): Json;
  json(schema: Json, description?: string): Json;
  body(schema: Json): Json;
  errors: Json;
  clientSecurity: Json[];
  geminiSecurity: Json[];
  geminiModel: Json;
  geminiRoute: string;
  routingFields: Json;
}

const TAG = 'Embeddings';

const HEADERS: Json = {
  'x-request-id': { schema: { type: 'string' } },
  'x-rosetta-model': { schema: { type: 'string' } },
  'x-rosetta-provider': { schema: { type: 'string' } },
  'x-rosetta-cost-usd': { schema: { type: 'string' }, description: 'What the answer cost' },
  'x-rosetta-warnings': { schema: { type: 'string' }, description: 'What the serving protocol could not carry (a Gemini taskType toward OpenAI, say)' },
};

export function embeddingPaths(h: Helpers): Record<string, Record<string, Json & { summary: string; tags: string[] }>> {
  const ok = (schema: string): Json => ({ '200': { ...h.json(h.ref(schema)), headers: HEADERS }, ...h.errors });
  const withRouting = (schema: string): Json => h.body({ allOf: [h.ref(schema), { type: 'object', properties: h.routingFields }] });
  return {
    '/v1/embeddings': {
      post: { summary: 'Embeddings (OpenAI dialect); `encoding_format: base64` is little-endian float32', tags: [TAG], security: h.clientSecurity, requestBody: withRouting('OpenAIEmbeddingsRequest'), responses: ok('OpenAIEmbeddingsResponse') },
    },
    '/v1beta/models/{model}:embedContent': {
      post: { summary: 'Embed one content (Gemini dialect)', tags: [TAG], security: h.geminiSecurity, parameters: [h.geminiModel], requestBody: withRouting('GeminiEmbedContentRequest'), responses: ok('GeminiEmbedContentResponse'), 'x-route': h.geminiRoute },
    },
    '/v1beta/models/{model}:batchEmbedContents': {
      post: { summary: 'Embed up to 100 contents (Gemini dialect; what @google/genai calls)', tags: [TAG], security: h.geminiSecurity, parameters: [h.geminiModel], requestBody: withRouting('GeminiBatchEmbedContentsRequest'), responses: ok('GeminiBatchEmbedContentsResponse'), 'x-route': h.geminiRoute },
    },
  };
}

const VECTOR: Json = { type: 'array', items: { type: 'number' } };
const GEMINI_EMBED: Json = {
  type: 'object',
  required: ['content'],
  properties: {
    model: { type: 'string', description: 'models/<the model in the path>, when given' },
    content: { type: 'object', properties: { parts: { type: 'array', items: { type: 'object', properties: { text: { type: 'string' } } } } } },
    taskType: { type: 'string', enum: ['TASK_TYPE_UNSPECIFIED', 'RETRIEVAL_QUERY', 'RETRIEVAL_DOCUMENT', 'SEMANTIC_SIMILARITY', 'CLASSIFICATION', 'CLUSTERING', 'QUESTION_ANSWERING', 'FACT_VERIFICATION', 'CODE_RETRIEVAL_QUERY'] },
    title: { type: 'string' },
    outputDimensionality: { type: 'integer', minimum: 1 },
  },
};

export const EMBEDDING_SCHEMAS: Json = {
  OpenAIEmbeddingsRequest: {
    type: 'object',
    required: ['model', 'input'],
    properties: {
      model: { type: 'string', examples: ['rosetta/text-embedding-3-small'] },
      input: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, maxItems: 2048 }, { type: 'array', items: { type: 'integer' } }, { type: 'array', items: { type: 'array', items: { type: 'integer' } } }] },
      dimensions: { type: 'integer', minimum: 1 },
      encoding_format: { type: 'string', enum: ['float', 'base64'], default: 'float' },
      user: { type: 'string' },
    },
  },
  OpenAIEmbeddingsResponse: {
    type: 'object',
    properties: {
      object: { const: 'list' },
      data: { type: 'array', items: { type: 'object', properties: { object: { const: 'embedding' }, index: { type: 'integer' }, embedding: { oneOf: [VECTOR, { type: 'string', contentEncoding: 'base64' }] } } } },
      model: { type: 'string' },
      usage: { type: 'object', properties: { prompt_tokens: { type: 'integer' }, total_tokens: { type: 'integer' }, cost: { type: 'number', description: 'USD' } } },
    },
  },
  GeminiEmbedContentRequest: GEMINI_EMBED,
  GeminiBatchEmbedContentsRequest: { type: 'object', required: ['requests'], properties: { requests: { type: 'array', items: GEMINI_EMBED, minItems: 1, maxItems: 100 } } },
  GeminiEmbedContentResponse: { type: 'object', properties: { embedding: { type: 'object', properties: { values: VECTOR } } } },
  GeminiBatchEmbedContentsResponse: { type: 'object', properties: { embeddings: { type: 'array', items: { type: 'object', properties: { values: VECTOR } } } } },
};
