/**
 * Canonical embeddings request → a Gemini upstream call: one input goes to `:embedContent`
 * (`{model, content, taskType?, title?, outputDimensionality?}`), several to `:batchEmbedContents`
 * (`{requests: [...]}`, each naming the model). A request that came in as dialect C is forwarded
 * as sent (model and routing fields rewritten), so fields Rosetta does not model survive.
 */
import { GatewayError, ROUTING_FIELD_NAMES, type Converted, type EmbeddingInput, type EmbeddingRequest } from '@rosetta/canonical';
import { compact, isRecord, type JsonObject } from '@rosetta/protocols/common';

export function geminiEmbedPath(upstreamModel: string, inputs: number): string {
  const name = upstreamModel.startsWith('models/') ? upstreamModel.slice('models/'.length) : upstreamModel;
  return `/v1beta/models/${name}:${inputs === 1 ? 'embedContent' : 'batchEmbedContents'}`;
}

export function convertToGeminiEmbedRequest({ request, upstreamModel }: { request: EmbeddingRequest; upstreamModel: string }): Converted<Record<string, unknown>> {
  const model = upstreamModel.startsWith('models/') ? upstreamModel : `models/${upstreamModel}`;
  const forwarded = request.passthrough?.protocol === 'gemini' ? forwardPassthrough(request.passthrough.body, model, request.inputs.length) : undefined;
  if (forwarded) return { value: forwarded, warnings: [] };
  const items = request.inputs.map((input, i) => toItem(input, i, model, request.dimensions));
  return { value: items.length === 1 ? items[0]! : { requests: items }, warnings: [] };
}

function toItem(input: EmbeddingInput, index: number, model: string, dimensions: number | undefined): JsonObject {
  if (input.type === 'tokens') {
    // The router never sends token ids to a protocol that cannot take them; this is the last guard.
    throw new GatewayError('invalid_request_error', 'Gemini embeddings take text, not token ids', { param: `input[${index}]`, local: true });
  }
  return compact({ model, content: { parts: [{ text: input.text }] }, taskType: input.taskType, title: input.title, outputDimensionality: dimensions });
}

/** The client's own body (one request or `requests[]`), in the shape the input count calls for. */
function forwardPassthrough(original: JsonObject, model: string, inputs: number): JsonObject | undefined {
  const items = Array.isArray(original['requests']) ? original['requests'] : [original];
  if (items.length !== inputs || !items.every(isRecord)) return undefined;
  const clean = items.map((item) => {
    const copy: JsonObject = { ...item, model };
    for (const name of ROUTING_FIELD_NAMES) delete copy[name];
    delete copy['requests'];
    return copy;
  });
  return inputs === 1 ? clean[0] : { requests: clean };
}
