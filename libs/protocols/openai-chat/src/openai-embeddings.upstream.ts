import { credentialHeader, type UpstreamEmbeddings } from '@rosetta/protocols/common';
import { convertOpenAIEmbeddingsResponse } from './convert-openai-embeddings-response';
import { MAX_OPENAI_EMBEDDING_INPUTS } from './convert-openai-embeddings-request';
import { convertToOpenAIEmbeddingsRequest } from './convert-to-openai-embeddings-request';

/** `POST {base}/embeddings` on any OpenAI-compatible server (OpenAI, vLLM, Ollama, Together…). */
export const openAIEmbeddingsUpstream: UpstreamEmbeddings = {
  maxInputs: MAX_OPENAI_EMBEDDING_INPUTS,
  tokenInputs: true,
  url: (baseUrl) => `${baseUrl}/embeddings`,
  headers: (apiKey) => credentialHeader('authorization', `Bearer ${apiKey}`, apiKey),
  encode: (request, upstreamModel) => convertToOpenAIEmbeddingsRequest({ request, upstreamModel }),
  decode: (body, inputs) => convertOpenAIEmbeddingsResponse({ body, inputs }),
};
