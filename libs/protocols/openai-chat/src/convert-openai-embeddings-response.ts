/**
 * An OpenAI-protocol upstream's embeddings answer → the canonical response: the vectors in input
 * order (by `index`), as floats or base64 float32, whichever the server sent; `prompt_tokens` as
 * the input usage. An answer that does not hold one vector per input is the upstream's failure.
 */
import { GatewayError, type EmbeddingResponse } from '@rosetta/canonical';
import { isNumber, isRecord, numberField, recordField, stringField, tokenCountField } from '@rosetta/protocols/common';
import { decodeFloat32Base64 } from './float32-base64';

export function convertOpenAIEmbeddingsResponse({ body, inputs }: { body: Record<string, unknown>; inputs: number }): EmbeddingResponse {
  const data = body['data'];
  if (!Array.isArray(data)) throw malformed('it has no data');
  if (data.length !== inputs) throw malformed(`it holds ${data.length} embeddings for ${inputs} inputs`);
  const embeddings = new Array<number[]>(inputs);
  data.forEach((item, position) => {
    const index = isRecord(item) ? (numberField(item, 'index') ?? position) : position;
    const vector = isRecord(item) ? readVector(item['embedding']) : undefined;
    if (!vector || !Number.isInteger(index) || index < 0 || index >= inputs || embeddings[index]) throw malformed(`embedding ${position} is not a vector for a distinct input`);
    embeddings[index] = vector;
  });
  const response: EmbeddingResponse = { model: stringField(body, 'model') ?? '', embeddings };
  const usage = recordField(body, 'usage');
  const prompt = usage && tokenCountField(usage, 'prompt_tokens', 'usage.prompt_tokens');
  if (prompt !== undefined) response.usage = { inputTokens: prompt, outputTokens: 0 };
  return response;
}

function readVector(value: unknown): number[] | undefined {
  if (typeof value === 'string') return decodeFloat32Base64(value);
  return Array.isArray(value) && value.every(isNumber) ? value : undefined;
}

function malformed(detail: string): GatewayError {
  return new GatewayError('upstream_error', `Upstream service error: malformed embeddings response (${detail})`, { status: 502, retryable: true });
}
