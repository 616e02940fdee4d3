/**
 * Canonical embeddings request → the body of `POST {base}/embeddings` for an OpenAI-protocol
 * upstream. Vectors are always asked for as floats: every OpenAI-compatible server speaks that,
 * and the client's own encoding is the gateway's to write. A request that came in as dialect A is
 * forwarded as sent (model and routing fields rewritten), so fields Rosetta does not model survive.
 */
import { ROUTING_FIELD_NAMES, type Converted, type EmbeddingInput, type EmbeddingRequest, type TranslationWarning } from '@rosetta/canonical';
import type { EmbeddingCreateParams } from 'openai/resources/embeddings';
import { compact } from '@rosetta/protocols/common';

export function convertToOpenAIEmbeddingsRequest({ request, upstreamModel }: { request: EmbeddingRequest; upstreamModel: string }): Converted<Record<string, unknown>> {
  if (request.passthrough?.protocol === 'openai') {
    const body: Record<string, unknown> = { ...request.passthrough.body };
    for (const name of ROUTING_FIELD_NAMES) delete body[name];
    return { value: { ...body, model: upstreamModel, encoding_format: 'float' }, warnings: [] };
  }
  const warnings: TranslationWarning[] = [];
  if (request.inputs.some((i) => i.type === 'text' && i.taskType !== undefined)) {
    warnings.push({ feature: 'taskType', message: 'OpenAI embeddings have no task type; dropped.' });
  }
  if (request.inputs.some((i) => i.type === 'text' && i.title !== undefined)) {
    warnings.push({ feature: 'title', message: 'OpenAI embeddings have no document title; dropped.' });
  }
  const body: EmbeddingCreateParams = compact({
    model: upstreamModel,
    input: wireInput(request.inputs),
    dimensions: request.dimensions,
    encoding_format: 'float' as const,
    user: request.user,
  });
  return { value: body as unknown as Record<string, unknown>, warnings };
}

/** All text → `string[]`; token ids → `number[][]` (OpenAI reads a flat number array as one input). */
function wireInput(inputs: readonly EmbeddingInput[]): EmbeddingCreateParams['input'] {
  if (inputs.every((i) => i.type === 'text')) return inputs.map((i) => (i as { text: string }).text);
  return inputs.map((i) => (i.type === 'text' ? i.text : i.tokens)) as EmbeddingCreateParams['input'];
}
