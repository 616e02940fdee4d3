export { convertOpenAIChatRequest } from './convert-openai-chat-request';
export { convertToOpenAIChatRequest, reasoningEffortFor, withPromptCacheKey } from './convert-to-openai-chat-request';
export { convertOpenAIChatResponse } from './convert-openai-chat-response';
export { convertToOpenAIChatResponse } from './convert-to-openai-chat-response';
export {
  mapOpenAIChatFinishReason,
  toOpenAIChatFinishReason,
  type OpenAIChatFinishReason,
} from './map-openai-chat-finish-reason';
export { mapOpenAIChatUsage, toOpenAIChatUsage } from './map-openai-chat-usage';
export { OpenAIChatStreamDecoder } from './openai-chat-stream-decoder';
export { OpenAIChatStreamEncoder, type OpenAIChatStreamEncoderOptions } from './openai-chat-stream-encoder';
export { parseOpenAIChatSSE } from './parse-openai-chat-sse';
export { OpenAIChatStreamScanner } from './openai-chat-stream-scanner';
export { OpenAIChatPassThroughFraming } from './openai-chat-pass-through-framing';
export { parseOpenAIChatErrorBody, renderOpenAIChatError, type OpenAIChatErrorBody } from './openai-chat-error';
export * from './reasoning-details';
export { openAIChatUpstream } from './openai-chat.upstream';
export { openAIChatDialect } from './openai-chat.dialect';
export { convertOpenAIEmbeddingsRequest, MAX_OPENAI_EMBEDDING_INPUTS, type EmbeddingEncoding, type OpenAIEmbeddingsCall } from './convert-openai-embeddings-request';
export { convertToOpenAIEmbeddingsRequest } from './convert-to-openai-embeddings-request';
export { convertOpenAIEmbeddingsResponse } from './convert-openai-embeddings-response';
export { convertToOpenAIEmbeddingsResponse } from './convert-to-openai-embeddings-response';
export { decodeFloat32Base64, encodeFloat32Base64 } from './float32-base64';
export { openAIEmbeddingsUpstream } from './openai-embeddings.upstream';
