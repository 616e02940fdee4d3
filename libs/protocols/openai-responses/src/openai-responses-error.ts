/**
 * Errors: the Responses API uses OpenAI's envelope (`{error: {message, type, param, code}}`), so
 * rendering and parsing are the chat-completions ones; what it adds is the `code` an in-stream
 * `error` event and a failed response carry.
 */
import type { GatewayError } from '@rosetta/canonical';

const CODES: Partial<Record<GatewayError['type'], string>> = {
  rate_limit_error: 'rate_limit_exceeded',
  invalid_request_error: 'invalid_request',
  overloaded_error: 'server_is_overloaded',
};

export function errorCode(error: GatewayError): string {
  return error.code ?? CODES[error.type] ?? 'server_error';
}

export { parseOpenAIChatErrorBody as parseOpenAIResponsesErrorBody, renderOpenAIChatError as renderOpenAIResponsesError } from '@rosetta/protocols/openai-chat';
