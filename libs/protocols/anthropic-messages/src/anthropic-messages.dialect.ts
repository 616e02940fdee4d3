import { headerOf, SSE_CONTENT_TYPE, withDefaultModel, type ClientDialect } from '@rosetta/protocols/common';
import { renderAnthropicMessagesError } from './anthropic-messages-error';
import { anthropicMessagesPassThroughFraming } from './anthropic-messages-pass-through-framing';
import { AnthropicMessagesStreamEncoder } from './anthropic-messages-stream-encoder';
import { convertAnthropicMessagesRequest } from './convert-anthropic-messages-request';
import { convertToAnthropicMessagesResponse } from './convert-to-anthropic-messages-response';

declare module '@rosetta/canonical' {
  interface DialectIds {
    anthropic: true;
  }
}

/** ARCHITECTURE §4.12: the version a client that sends none speaks. */
const DEFAULT_VERSION = '2023-06-01';

/** Dialect B, Anthropic messages: `/v1/messages` and its `count_tokens`. */
export const anthropicMessagesDialect: ClientDialect = {
  id: 'anthropic',
  routes: [
    { method: 'POST', pattern: '/v1/messages', operation: 'chat' },
    { method: 'POST', pattern: '/v1/messages/count_tokens', operation: 'count_tokens' },
  ],
  ownsPath: (path) => path.startsWith('/v1/messages') || /\/v1\/messages(?:\/count_tokens)?$/.test(path),
  // The SDK's header (accepted on every route): named first in this dialect's 401s.
  credential: { headers: ['x-api-key'] },
  renderError: renderAnthropicMessagesError,
  decodeChat(input) {
    const { value: request, warnings } = convertAnthropicMessagesRequest({ body: withDefaultModel(input.body, input.defaultModel) });
    // Both headers reach Anthropic upstreams (the upstream descriptor forwards them).
    const forwarded: Record<string, string> = { 'anthropic-version': headerOf(input, 'anthropic-version') ?? DEFAULT_VERSION };
    const beta = headerOf(input, 'anthropic-beta');
    if (beta) forwarded['anthropic-beta'] = beta;
    if (request.passthrough) request.passthrough.headers = forwarded;
    return {
      request,
      warnings,
      headers: { 'request-id': input.requestId },
      // The gateway's own id, in Anthropic's shape, as its streams carry (never the upstream's).
      encodeResponse: (response) => convertToAnthropicMessagesResponse({ response: { ...response, id: messageId(input.requestId) } }),
      streamFraming: (model) => {
        const encoder = new AnthropicMessagesStreamEncoder({ id: messageId(input.requestId), model });
        return { contentType: SSE_CONTENT_TYPE, encode: (event) => encoder.encode(event) };
      },
      // The upstream's message_start has the real input count: no estimate is shown.
      passThroughFraming: (model) => anthropicMessagesPassThroughFraming({ id: messageId(input.requestId), model }, SSE_CONTENT_TYPE),
    };
  },
  // Explaining a route needs no output cap: without one, a typical 1,024 is assumed.
  decodeForRouting: (body) => convertAnthropicMessagesRequest({ body: { max_tokens: 1024, ...body }, countTokens: true }).value,
  recognises: (_body, headers) => headers['anthropic-version'] !== undefined,
  decodeCountTokens(input) {
    const { value: request } = convertAnthropicMessagesRequest({ body: input.body, countTokens: true });
    return { request, encode: (tokens) => ({ input_tokens: tokens }) };
  },
};

function messageId(requestId: string): string {
  return `msg_${requestId.replace(/^req_/, '')}`;
}
