/**
 * A dialect-C embeddings body (already through normalizeGeminiRequest, so camelCase) → the
 * canonical embeddings request, validated in the same pass (a 400 names the field). `:embedContent`
 * takes one `content`; `:batchEmbedContents` takes `requests[]`, each naming the path's model (as
 * `@google/genai` sends it: `models/rosetta/…`), at most 100 as on Google's API, and all asking the
 * same `outputDimensionality` (one size per answer, as every upstream gives it). The model comes
 * from the path: a body `model` is only checked.
 */
import type { EmbeddingInput, EmbeddingRequest } from '@rosetta/canonical';
import {
  at, checkInteger, checkOneOf, checkString, convertRoutingFields, invalid, isRecord, required, type JsonObject,
} from '@rosetta/protocols/common';

/** Google's limit on `requests` in one batch. */
export const MAX_GEMINI_BATCH_EMBEDDINGS = 100;

export const GEMINI_TASK_TYPES = [
  'TASK_TYPE_UNSPECIFIED', 'RETRIEVAL_QUERY', 'RETRIEVAL_DOCUMENT', 'SEMANTIC_SIMILARITY', 'CLASSIFICATION',
  'CLUSTERING', 'QUESTION_ANSWERING', 'FACT_VERIFICATION', 'CODE_RETRIEVAL_QUERY',
] as const;

/** One embed request as read: its input and the size it asks for. */
interface EmbedItem {
  input: EmbeddingInput;
  dimensions?: number;
}

export function convertGeminiEmbedRequest({ body, model, batch }: { body: JsonObject; model: string; batch: boolean }): EmbeddingRequest {
  const routing = convertRoutingFields({ body });
  const items = batch ? readBatch(body, model) : [readItem(body, '', model)];
  const dimensions = items[0]?.dimensions;
  items.forEach((item, i) => {
    if (item.dimensions !== dimensions) invalid(`requests[${i}].outputDimensionality`, 'must be the same in every request of a batch');
  });
  const request: EmbeddingRequest = {
    model,
    inputs: items.map((item) => item.input),
    routing,
    passthrough: { protocol: 'gemini', body },
  };
  if (dimensions !== undefined) request.dimensions = dimensions;
  return request;
}

function readBatch(body: JsonObject, model: string): EmbedItem[] {
  const requests = required(body, 'requests');
  if (!Array.isArray(requests)) invalid('requests', 'must be an array of embed requests');
  if (requests.length === 0) invalid('requests', 'must contain at least 1 item');
  if (requests.length > MAX_GEMINI_BATCH_EMBEDDINGS) invalid('requests', `at most ${MAX_GEMINI_BATCH_EMBEDDINGS} requests can be in one batch, got ${requests.length}`);
  return requests.map((item, i) => {
    const path = `requests[${i}]`;
    if (!isRecord(item)) invalid(path, 'must be an object');
    return readItem(item, path, model);
  });
}

function readItem(item: JsonObject, path: string, model: string): EmbedItem {
  checkModel(item['model'], at(path, 'model'), model);
  checkOneOf(item['taskType'], at(path, 'taskType'), GEMINI_TASK_TYPES);
  checkString(item['title'], at(path, 'title'));
  checkInteger(item['outputDimensionality'], at(path, 'outputDimensionality'), 1);
  const input: EmbeddingInput = { type: 'text', text: readContent(required(item, 'content', path), at(path, 'content')) };
  if (typeof item['taskType'] === 'string') input.taskType = item['taskType'];
  if (typeof item['title'] === 'string') input.title = item['title'];
  const dimensions = item['outputDimensionality'];
  return typeof dimensions === 'number' ? { input, dimensions } : { input };
}

/** A request's model, when given, is the path's (`models/rosetta/x` or `rosetta/x`). */
function checkModel(value: unknown, path: string, model: string): void {
  checkString(value, path);
  if (typeof value === 'string' && value !== `models/${model}` && value !== model) invalid(path, `must name the model in the request path, 'models/${model}'`);
}

/** The text of a content's parts, joined by newlines (an embedding model takes text only). */
function readContent(content: unknown, path: string): string {
  if (!isRecord(content)) invalid(path, 'must be an object');
  const parts = required(content, 'parts', path);
  if (!Array.isArray(parts) || parts.length === 0) invalid(at(path, 'parts'), 'must be a non-empty array of text parts');
  const texts = parts.map((part, i) => {
    const partPath = `${path}.parts[${i}]`;
    if (!isRecord(part) || typeof part['text'] !== 'string') invalid(partPath, 'must be a text part ({text}): only text can be embedded');
    return part['text'];
  });
  const text = texts.join('\n');
  if (text.trim() === '') invalid(at(path, 'parts'), 'must hold some text');
  return text;
}
