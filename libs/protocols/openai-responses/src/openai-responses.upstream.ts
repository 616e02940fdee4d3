import { credentialHeader, type UpstreamProtocol } from '@rosetta/protocols/common';
import { parseOpenAIChatSSE } from '@rosetta/protocols/openai-chat';
import { convertOpenAIResponsesResponse } from './convert-openai-responses-response';
import { convertToOpenAIResponsesRequest } from './convert-to-openai-responses-request';
import { parseOpenAIResponsesErrorBody, refusesEncryptedReasoning } from './openai-responses-error';
import { OpenAIResponsesStreamDecoder } from './openai-responses-stream-decoder';
import { OpenAIResponsesStreamScanner } from './openai-responses-stream-scanner';

declare module '@rosetta/canonical' {
  interface UpstreamProtocolIds {
    'openai-responses': true;
  }
}

/**
 * OpenAI's Responses API (`POST {base}/responses`), for models served only that way. Its events
 * are SSE with a JSON `data` carrying its own `type`, which the chat-completions parser reads
 * (it also turns a named `error` event into an `{error}` chunk).
 */
export const openAIResponsesUpstream: UpstreamProtocol = {
  id: 'openai-responses',
  parameters: ['tools', 'tool_choice', 'temperature', 'top_p', 'frequency_penalty', 'presence_penalty', 'response_format', 'max_tokens', 'reasoning'],
  outputCapFields: [['max_output_tokens']],
  url: (baseUrl) => `${baseUrl}/responses`,
  headers: (apiKey) => credentialHeader('authorization', `Bearer ${apiKey}`, apiKey),
  encode: (request, endpoint) => convertToOpenAIResponsesRequest({ request, upstreamModel: endpoint.upstreamModel, reasoning: endpoint.reasoning }),
  decode: (body) => convertOpenAIResponsesResponse({ body }),
  parseStream: parseOpenAIChatSSE,
  streamDecoder: () => new OpenAIResponsesStreamDecoder(),
  streamScanner: () => new OpenAIResponsesStreamScanner(),
  parseError: parseOpenAIResponsesErrorBody,
  refusesReasoning: refusesEncryptedReasoning,
};
