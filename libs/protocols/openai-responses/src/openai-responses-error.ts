/**
 * Errors: the Responses API uses OpenAI's envelope (`{error: {message, type, param, code}}`), so
 * rendering and parsing are the chat-completions ones; what it adds is the `code` an in-stream
 * `error` event and a failed response carry.
 */
import type { GatewayError } from '@rosetta/canonical';
import { isRecord, isString } from '@rosetta/protocols/common';

const CODES: Partial<Record<GatewayError['type'], string>> = {
  rate_limit_error: 'rate_limit_exceeded',
  invalid_request_error: 'invalid_request',
  overloaded_error: 'server_is_overloaded',
  guardrail_violation: 'guardrail_violation',
};

export function errorCode(error: GatewayError): string {
  return error.code ?? CODES[error.type] ?? 'server_error';
}

/**
 * The data of an in-stream `error` event. The openai SDK types its fields flat (`code`, `message`,
 * `param`); the published Responses schema nests them under `error` with the type. Both are
 * written, so either reading finds them.
 */
export function errorEventData(error: GatewayError): { code: string; message: string; param: string | null; error: { type: string; code: string; message: string; param: string | null } } {
  const code = errorCode(error);
  const param = error.param ?? null;
  return { code, message: error.message, param, error: { type: error.type, code, message: error.message, param } };
}

/**
 * OpenAI's (and Azure's) 400 for `include: ["reasoning.encrypted_content"]` sent to a model that
 * does not reason (gpt-4o, gpt-4.1, gpt-5-chat-latest): `param` is `include`.
 */
export function refusesEncryptedReasoning(status: number, text: string): boolean {
  if (status !== 400) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  const error = isRecord(parsed) && isRecord(parsed['error']) ? parsed['error'] : undefined;
  return error !== undefined && error['param'] === 'include' && isString(error['message']) && /encrypted content is not supported/i.test(error['message']);
}

export { parseOpenAIChatErrorBody as parseOpenAIResponsesErrorBody, renderOpenAIChatError as renderOpenAIResponsesError } from '@rosetta/protocols/openai-chat';
