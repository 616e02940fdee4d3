import { credentialHeader, type UpstreamProtocol } from '@rosetta/protocols/common';
import { convertGeminiResponse } from './convert-gemini-response';
import { convertToGeminiRequest, geminiPath } from './convert-to-gemini-request';
import { geminiEmbedUpstream } from './gemini-embed.upstream';
import { parseGeminiErrorBody } from './gemini-error';
import { GeminiStreamDecoder } from './gemini-stream-decoder';
import { GeminiStreamScanner } from './gemini-stream-scanner';
import { parseGeminiSSE } from './parse-gemini-sse';

declare module '@rosetta/canonical' {
  interface UpstreamProtocolIds {
    gemini: true;
  }
}

/** Gemini upstreams: generateContent (the model goes in the path; streams use ?alt=sse) and embeddings. */
export const geminiUpstream: UpstreamProtocol = {
  id: 'gemini',
  parameters: ['tools', 'tool_choice', 'temperature', 'top_p', 'top_k', 'stop', 'seed', 'frequency_penalty', 'presence_penalty', 'response_format', 'max_tokens', 'reasoning'],
  outputCapFields: [['generationConfig', 'maxOutputTokens']],
  url: (baseUrl, upstreamModel, stream) => `${baseUrl}${geminiPath(upstreamModel, stream)}`,
  headers: (apiKey) => credentialHeader('x-goog-api-key', apiKey, apiKey),
  encode: (request, endpoint) => convertToGeminiRequest({ request, upstreamModel: endpoint.upstreamModel }),
  decode: (body) => convertGeminiResponse({ body }),
  parseStream: parseGeminiSSE,
  streamDecoder: () => new GeminiStreamDecoder(),
  streamScanner: () => new GeminiStreamScanner(),
  parseError: parseGeminiErrorBody,
  embeddings: geminiEmbedUpstream,
};
