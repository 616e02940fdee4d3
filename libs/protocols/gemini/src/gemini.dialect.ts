import { isRecord, requireObjectBody, SSE_CONTENT_TYPE, type ClientDialect, type ModelFacts, type StreamFraming } from '@rosetta/protocols/common';
import { convertGeminiEmbedRequest } from './convert-gemini-embed-request';
import { convertGeminiRequest } from './convert-gemini-request';
import { convertToGeminiEmbedResponse } from './convert-to-gemini-embed-response';
import { convertToGeminiResponse } from './convert-to-gemini-response';
import { renderGeminiError } from './gemini-error';
import { parseGeminiModelPath } from './gemini-model-path';
import { GeminiStreamEncoder } from './gemini-stream-encoder';
import { geminiSseChunk, GeminiJsonArrayWriter } from './gemini-stream-framing';
import { geminiPassThroughFraming } from './gemini-pass-through-framing';
import { validateGeminiAlt } from './gemini-alt';
import { normalizeGeminiRequest } from './normalize-gemini-request';

declare module '@rosetta/canonical' {
  interface DialectIds {
    gemini: true;
  }
}

/** The `model_call` operation of each `models/{model}:{method}`. */
const OPERATIONS = {
  generateContent: 'chat',
  streamGenerateContent: 'stream',
  countTokens: 'count_tokens',
  embedContent: 'embed',
  batchEmbedContents: 'batch_embed',
} as const;

/** Dialect C, Gemini: `models/{model}:{method}` calls, the model list, everything under `/v1beta`. */
export const geminiDialect: ClientDialect = {
  id: 'gemini',
  routes: [
    { method: 'POST', pattern: '/v1beta/models/{path}', operation: 'model_call' },
    { method: 'GET', pattern: '/v1beta/models', operation: 'list_models' },
    { method: 'GET', pattern: '/v1beta/models/{path}', operation: 'get_model' },
  ],
  ownsPath: (path) => path.startsWith('/v1beta') || /\/v1beta\/models\//.test(path),
  // As Google's SDK and curl examples send it.
  credential: { headers: ['x-goog-api-key'], query: ['key'] },
  renderError: renderGeminiError,
  parseModelCall(tail) {
    const { model, method } = parseGeminiModelPath(tail);
    return { model, operation: OPERATIONS[method] };
  },
  /** `:embedContent` (`{content}`) or `:batchEmbedContents` (`{requests: [...]}`). */
  decodeEmbed(input) {
    const batch = input.batch === true;
    const body = normalizeGeminiRequest(requireObjectBody(input.body));
    const request = convertGeminiEmbedRequest({ body, model: input.model ?? '', batch });
    return { request, warnings: [], encodeResponse: (response) => convertToGeminiEmbedResponse({ response, batch }) };
  },
  decodeChat(input) {
    const sse = validateGeminiAlt(input.query['alt']);
    const body = normalizeGeminiRequest(requireObjectBody(input.body));
    const { value: request, warnings } = convertGeminiRequest({ body, model: input.model ?? '', stream: input.stream === true });
    return {
      request,
      warnings,
      // The gateway's own id, as its streams carry (never the upstream's `chatcmpl-…` or `msg_…`).
      encodeResponse: (response) => convertToGeminiResponse({ response: { ...response, id: input.requestId } }),
      streamFraming: (model) => geminiFraming(new GeminiStreamEncoder({ id: input.requestId, model }), sse),
      passThroughFraming: (model) => geminiPassThroughFraming({ id: input.requestId, model }, sse),
    };
  },
  /** `{contents}` or `{generateContentRequest: {...}}`. */
  decodeCountTokens(input) {
    validateGeminiAlt(input.query['alt']);
    const body = normalizeGeminiRequest(requireObjectBody(input.body));
    const inner = isRecord(body['generateContentRequest']) ? body['generateContentRequest'] : body;
    const { value: request } = convertGeminiRequest({ body: inner, model: input.model ?? '', stream: false });
    return { request, encode: (tokens) => ({ totalTokens: tokens }) };
  },
  decodeForRouting: (body, model) => convertGeminiRequest({ body: normalizeGeminiRequest(body), model }).value,
  recognises: (body) => 'contents' in body,
  encodeModelList: (models) => ({ models: models.map(toGeminiModel) }),
  encodeModel: toGeminiModel,
};

function toGeminiModel(model: ModelFacts): Record<string, unknown> {
  if (model.kind === 'embedding') {
    // As Google lists its embedding models: one output "token", embedContent as the method.
    return { ...baseGeminiModel(model), outputTokenLimit: 1, supportedGenerationMethods: ['embedContent', 'countTokens'] };
  }
  return { ...baseGeminiModel(model), outputTokenLimit: model.maxCompletionTokens ?? 65_536, supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'] };
}

function baseGeminiModel(model: ModelFacts): Record<string, unknown> {
  return {
    name: `models/${model.id}`,
    baseModelId: model.id,
    version: '001',
    displayName: model.displayName,
    description: model.description,
    inputTokenLimit: model.contextLength ?? 1_048_576,
  };
}

function geminiFraming(encoder: GeminiStreamEncoder, sse: boolean): StreamFraming {
  if (sse) {
    const frame = (chunk: Record<string, unknown>): string => geminiSseChunk(JSON.stringify(chunk), 'error' in chunk);
    return { contentType: SSE_CONTENT_TYPE, encode: (e) => encoder.encode(e).map(frame).join('') };
  }
  const writer = new GeminiJsonArrayWriter();
  return {
    contentType: 'application/json; charset=utf-8',
    open: writer.open(),
    encode: (e) => encoder.encode(e).map((chunk) => writer.item(chunk)).join(''),
    close: () => writer.close(),
  };
}
