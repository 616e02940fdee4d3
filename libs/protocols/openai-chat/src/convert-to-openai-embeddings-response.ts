/**
 * The canonical embeddings response → dialect A's answer, as `client.embeddings.create` reads it:
 * `{object: "list", data: [{object: "embedding", index, embedding}], model, usage}`. With
 * `encoding_format: "base64"` each vector is little-endian float32 bytes in base64 (what the SDK
 * asks for by default, and decodes with a Float32Array); otherwise JSON numbers. `usage.cost` is
 * what the answer cost the caller, as on chat completions.
 */
import type { EmbeddingResponse } from '@rosetta/canonical';
import type { CreateEmbeddingResponse } from 'openai/resources/embeddings';
import type { EmbeddingEncoding } from './convert-openai-embeddings-request';
import { encodeFloat32Base64 } from './float32-base64';

type Wire = Omit<CreateEmbeddingResponse, 'data' | 'usage'> & {
  data: Array<{ object: 'embedding'; index: number; embedding: number[] | string }>;
  usage: CreateEmbeddingResponse['usage'] & { cost?: number };
};

export function convertToOpenAIEmbeddingsResponse({ response, encodingFormat, costUsd }: { response: EmbeddingResponse; encodingFormat: EmbeddingEncoding; costUsd?: number }): Wire {
  const tokens = response.usage?.inputTokens ?? 0;
  const usage: Wire['usage'] = { prompt_tokens: tokens, total_tokens: tokens };
  if (costUsd !== undefined) usage.cost = costUsd;
  return {
    object: 'list',
    data: response.embeddings.map((values, index) => ({ object: 'embedding', index, embedding: encodingFormat === 'base64' ? encodeFloat32Base64(values) : values })),
    model: response.model,
    usage,
  };
}
