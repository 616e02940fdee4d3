import { credentialHeader, type UpstreamProtocol } from '@rosetta/protocols/common';
import { convertOpenAIChatResponse } from './convert-openai-chat-response';
import { convertToOpenAIChatRequest } from './convert-to-openai-chat-request';
import { parseOpenAIChatErrorBody } from './openai-chat-error';
import { OpenAIChatStreamDecoder } from './openai-chat-stream-decoder';
import { OpenAIChatStreamScanner } from './openai-chat-stream-scanner';
import { openAIEmbeddingsUpstream } from './openai-embeddings.upstream';
import { parseOpenAIChatSSE } from './parse-openai-chat-sse';

declare module '@rosetta/canonical' {
  interface UpstreamProtocolIds {
    openai: true;
  }
}

/** Any OpenAI-compatible server: OpenAI, vLLM, Ollama, Groq, Together… (chat completions and embeddings). */
export const openAIChatUpstream: UpstreamProtocol = {
  id: 'openai',
  parameters: ['tools', 'tool_choice', 'temperature', 'top_p', 'stop', 'seed', 'frequency_penalty', 'presence_penalty', 'response_format', 'max_tokens', 'reasoning'],
  outputCapFields: [['max_completion_tokens'], ['max_tokens']],
  url: (baseUrl) => `${baseUrl}/chat/completions`,
  headers: (apiKey) => credentialHeader('authorization', `Bearer ${apiKey}`, apiKey),
  encode: (request, endpoint) =>
    convertToOpenAIChatRequest({ request, upstreamModel: endpoint.upstreamModel, reasoning: endpoint.reasoning }) as ReturnType<UpstreamProtocol['encode']>,
  decode: (body) => convertOpenAIChatResponse({ body }),
  parseStream: parseOpenAIChatSSE,
  streamDecoder: () => new OpenAIChatStreamDecoder(),
  streamScanner: () => new OpenAIChatStreamScanner(),
  parseError: parseOpenAIChatErrorBody,
  embeddings: openAIEmbeddingsUpstream,
};
