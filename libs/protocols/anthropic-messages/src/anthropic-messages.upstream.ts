import { credentialHeader, type UpstreamProtocol } from '@rosetta/protocols/common';
import { parseAnthropicMessagesErrorBody } from './anthropic-messages-error';
import { AnthropicMessagesStreamDecoder } from './anthropic-messages-stream-decoder';
import { AnthropicMessagesStreamScanner } from './anthropic-messages-stream-scanner';
import { convertAnthropicMessagesResponse } from './convert-anthropic-messages-response';
import { convertToAnthropicMessagesRequest } from './convert-to-anthropic-messages-request';
import { parseAnthropicBedrockStream } from './parse-anthropic-bedrock-stream';
import { parseAnthropicMessagesSSE } from './parse-anthropic-messages-sse';

declare module '@rosetta/canonical' {
  interface UpstreamProtocolIds {
    anthropic: true;
  }
}

const DEFAULT_VERSION = '2023-06-01';
/** Anthropic requires max_tokens; when the client gave none, ask for this much (or the endpoint's limit). */
const DEFAULT_MAX_TOKENS = 8192;

/** Anthropic Messages upstreams. */
export const anthropicMessagesUpstream: UpstreamProtocol = {
  id: 'anthropic',
  parameters: ['tools', 'tool_choice', 'temperature', 'top_p', 'top_k', 'stop', 'response_format', 'max_tokens', 'reasoning'],
  outputCapFields: [['max_tokens']],
  thinkingBudgetFields: [['thinking', 'budget_tokens']],
  url: (baseUrl) => `${baseUrl}/v1/messages`,
  headers: (apiKey, request) => {
    // ARCHITECTURE §4.12: the client's anthropic-version and anthropic-beta reach Anthropic upstreams.
    const fromClient = request.passthrough?.protocol === 'anthropic' ? (request.passthrough.headers ?? {}) : {};
    const headers: Record<string, string> = { ...credentialHeader('x-api-key', apiKey, apiKey), 'anthropic-version': fromClient['anthropic-version'] ?? DEFAULT_VERSION };
    if (fromClient['anthropic-beta']) headers['anthropic-beta'] = fromClient['anthropic-beta'];
    return headers;
  },
  encode: (request, endpoint) =>
    convertToAnthropicMessagesRequest({
      request,
      upstreamModel: endpoint.upstreamModel,
      defaultMaxTokens: Math.min(endpoint.maxCompletionTokens ?? DEFAULT_MAX_TOKENS, DEFAULT_MAX_TOKENS),
    }) as ReturnType<UpstreamProtocol['encode']>,
  decode: (body) => convertAnthropicMessagesResponse({ body }),
  parseStream: parseAnthropicMessagesSSE,
  platformStreams: { bedrock: parseAnthropicBedrockStream },
  streamDecoder: () => new AnthropicMessagesStreamDecoder(),
  streamScanner: () => new AnthropicMessagesStreamScanner(),
  parseError: parseAnthropicMessagesErrorBody,
};
