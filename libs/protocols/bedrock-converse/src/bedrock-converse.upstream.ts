import { credentialHeader, parseAwsEventStream, type UpstreamProtocol } from '@rosetta/protocols/common';
import { parseBedrockConverseErrorBody } from './bedrock-converse-error';
import { BedrockConverseStreamDecoder } from './bedrock-converse-stream-decoder';
import { convertBedrockConverseResponse } from './convert-bedrock-converse-response';
import { convertToBedrockConverseRequest } from './convert-to-bedrock-converse-request';

declare module '@rosetta/canonical' {
  interface UpstreamProtocolIds {
    'bedrock-converse': true;
  }
}

/** Thinking needs an output cap above its budget; without one asked for, this much (or the endpoint's limit). */
const DEFAULT_MAX_TOKENS = 8192;

/**
 * AWS Bedrock's Converse API (ARCHITECTURE §9): one request shape for every model Bedrock sells,
 * at `{base}/model/{id}/converse` and `/converse-stream` (AWS event-stream framing). A Bedrock API
 * key goes as a bearer; without one the platform layer signs the request with SigV4.
 *
 * `top_k` is listed because Claude takes it (in additionalModelRequestFields); for other families
 * it is dropped with a warning. `response_format` is listed as Anthropic lists it: Converse has no
 * JSON mode, so the model is asked in the system prompt, with a warning, and a caller who set
 * `provider_require_parameters` is refused rather than given an instruction for a guarantee.
 */
export const bedrockConverseUpstream: UpstreamProtocol = {
  id: 'bedrock-converse',
  parameters: ['tools', 'tool_choice', 'temperature', 'top_p', 'top_k', 'stop', 'response_format', 'max_tokens', 'reasoning'],
  outputCapFields: [['inferenceConfig', 'maxTokens']],
  thinkingBudgetFields: [['additionalModelRequestFields', 'thinking', 'budget_tokens']],
  url: (baseUrl, upstreamModel, stream) => `${baseUrl}/model/${encodeURIComponent(upstreamModel)}/${stream ? 'converse-stream' : 'converse'}`,
  headers: (apiKey) => credentialHeader('authorization', `Bearer ${apiKey}`, apiKey),
  encode: (request, endpoint) =>
    convertToBedrockConverseRequest({
      request,
      upstreamModel: endpoint.upstreamModel,
      reasoning: endpoint.reasoning,
      defaultMaxTokens: Math.min(endpoint.maxCompletionTokens ?? DEFAULT_MAX_TOKENS, DEFAULT_MAX_TOKENS),
    }),
  decode: (body) => convertBedrockConverseResponse(body),
  parseStream: parseAwsEventStream,
  streamDecoder: () => new BedrockConverseStreamDecoder(),
  parseError: parseBedrockConverseErrorBody,
};
