export { convertOpenAIResponsesRequest } from './convert-openai-responses-request';
export { convertToOpenAIResponsesRequest } from './convert-to-openai-responses-request';
export { convertOpenAIResponsesResponse } from './convert-openai-responses-response';
export { convertToOpenAIResponsesOutput } from './convert-to-openai-responses-output';
export { OpenAIResponsesStreamDecoder } from './openai-responses-stream-decoder';
export { OpenAIResponsesStreamEncoder } from './openai-responses-stream-encoder';
export { openAIResponsesUpstream } from './openai-responses.upstream';
export { openAIResponsesDialect } from './openai-responses.dialect';
