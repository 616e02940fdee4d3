import { isRecord, SSE_CONTENT_TYPE, withDefaultModel, type ClientDialect } from '@rosetta/protocols/common';
import { convertOpenAIChatRequest } from './convert-openai-chat-request';
import { convertOpenAIEmbeddingsRequest } from './convert-openai-embeddings-request';
import { convertToOpenAIChatResponse } from './convert-to-openai-chat-response';
import { convertToOpenAIEmbeddingsResponse } from './convert-to-openai-embeddings-response';
import { renderOpenAIChatError } from './openai-chat-error';
import { openAIChatPassThroughFraming } from './openai-chat-pass-through-framing';
import { OpenAIChatStreamEncoder, type OpenAIChatStreamEncoderOptions } from './openai-chat-stream-encoder';

declare module '@rosetta/canonical' {
  interface DialectIds {
    openai: true;
  }
}

/** Dialect A, OpenAI chat completions and embeddings; it also owns every `/v1` path no other dialect owns. */
export const openAIChatDialect: ClientDialect = {
  id: 'openai',
  routes: [
    { method: 'POST', pattern: '/v1/chat/completions', operation: 'chat' },
    { method: 'POST', pattern: '/v1/embeddings', operation: 'embed' },
  ],
  ownsPath: () => true,
  credential: {},
  renderError: renderOpenAIChatError,
  decodeEmbed(input) {
    const { request, encodingFormat } = convertOpenAIEmbeddingsRequest({ body: input.body });
    return { request, warnings: [], encodeResponse: (response, costUsd) => convertToOpenAIEmbeddingsResponse({ response, encodingFormat, costUsd }) };
  },
  decodeChat(input) {
    const body = withDefaultModel(input.body, input.defaultModel);
    const { value: request, warnings } = convertOpenAIChatRequest({ body });
    // Checked by the decode: an object when present.
    const includeUsage = isRecord(body) && isRecord(body['stream_options']) && body['stream_options']['include_usage'] === true;
    return {
      request,
      warnings,
      // The gateway's own id, in OpenAI's shape, as its streams carry (never the upstream's).
      encodeResponse: (response) => convertToOpenAIChatResponse({ response: { ...response, id: completionId(input.requestId) } }),
      streamFraming: (model) => {
        const encoder = new OpenAIChatStreamEncoder(encoderOptions(input.requestId, model, includeUsage));
        return { contentType: SSE_CONTENT_TYPE, encode: (event) => encoder.encode(event) };
      },
      passThroughFraming: (model) => openAIChatPassThroughFraming(encoderOptions(input.requestId, model, includeUsage), SSE_CONTENT_TYPE),
    };
  },
};

/** What the client sees of a stream's envelope, whichever way the stream is written. */
function encoderOptions(requestId: string, model: string, includeUsage: boolean): OpenAIChatStreamEncoderOptions {
  return { id: completionId(requestId), model, created: Math.floor(Date.now() / 1000), includeUsage };
}

/** `chatcmpl-…`, from the gateway's request id. */
function completionId(requestId: string): string {
  return `chatcmpl-${requestId.replace(/^req_/, '')}`;
}
