/**
 * A Gemini upstream's embeddings answer → the canonical response: `{embedding: {values}}` from
 * `:embedContent`, `{embeddings: [{values}]}` from `:batchEmbedContents`. The Gemini API reports no
 * usage (the gateway estimates it); a `usageMetadata.promptTokenCount`, where a server sends one,
 * is used. An answer without one vector per input is the upstream's failure.
 */
import { GatewayError, type EmbeddingResponse } from '@rosetta/canonical';
import { isNumber, isRecord, recordField, tokenCountField } from '@rosetta/protocols/common';

export function convertGeminiEmbedResponse({ body, inputs }: { body: Record<string, unknown>; inputs: number }): EmbeddingResponse {
  const items = Array.isArray(body['embeddings']) ? body['embeddings'] : isRecord(body['embedding']) ? [body['embedding']] : undefined;
  if (!items) throw malformed('it has no embedding');
  if (items.length !== inputs) throw malformed(`it holds ${items.length} embeddings for ${inputs} inputs`);
  const embeddings = items.map((item, i) => {
    const values = isRecord(item) ? item['values'] : undefined;
    if (!Array.isArray(values) || !values.every(isNumber)) throw malformed(`embedding ${i} has no values`);
    return values;
  });
  const response: EmbeddingResponse = { model: '', embeddings };
  const usage = recordField(body, 'usageMetadata');
  const prompt = usage && tokenCountField(usage, 'promptTokenCount', 'usageMetadata.promptTokenCount');
  if (prompt !== undefined) response.usage = { inputTokens: prompt, outputTokens: 0 };
  return response;
}

function malformed(detail: string): GatewayError {
  return new GatewayError('upstream_error', `Upstream service error: malformed embeddings response (${detail})`, { status: 502, retryable: true });
}
