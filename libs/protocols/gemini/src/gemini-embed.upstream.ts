import { credentialHeader, type UpstreamEmbeddings } from '@rosetta/protocols/common';
import { convertGeminiEmbedResponse } from './convert-gemini-embed-response';
import { MAX_GEMINI_BATCH_EMBEDDINGS } from './convert-gemini-embed-request';
import { convertToGeminiEmbedRequest, geminiEmbedPath } from './convert-to-gemini-embed-request';

/** `:embedContent` for one input, `:batchEmbedContents` (at most 100 a call) for more; text only. */
export const geminiEmbedUpstream: UpstreamEmbeddings = {
  maxInputs: MAX_GEMINI_BATCH_EMBEDDINGS,
  tokenInputs: false,
  url: (baseUrl, upstreamModel, inputs) => `${baseUrl}${geminiEmbedPath(upstreamModel, inputs)}`,
  headers: (apiKey) => credentialHeader('x-goog-api-key', apiKey, apiKey),
  encode: (request, upstreamModel) => convertToGeminiEmbedRequest({ request, upstreamModel }),
  decode: (body, inputs) => convertGeminiEmbedResponse({ body, inputs }),
};
