/** Errors in the dialect-A envelope, and error bodies read back from OpenAI-compatible upstreams. */
import type { GatewayError } from '@rosetta/canonical';
import { isRecord, isString, stringField } from '@rosetta/protocols/common';

const MAX_RAW_MESSAGE = 500;

/** `{error: {message, type, code, param}}`, the shape openai-node reads, plus the request id. */
export function renderOpenAIChatError(error: GatewayError, requestId: string): Record<string, unknown> {
  return {
    error: { message: error.message, type: error.type, code: error.code ?? null, param: error.param ?? null },
    request_id: requestId,
  };
}

export interface OpenAIChatErrorBody {
  message: string;
  type?: string;
  code?: string;
}

/**
 * The message of an upstream error body. OpenAI nests it in `error`; vLLM and some proxies put
 * `message` at the top or make `error` a string; anything else is reported as raw text.
 */
export function parseOpenAIChatErrorBody(text: string): OpenAIChatErrorBody {
  const parsed = parseJson(text);
  const source = isRecord(parsed) ? (isRecord(parsed['error']) ? parsed['error'] : parsed) : undefined;
  const message = source && stringField(source, 'message');
  if (source && message) {
    const body: OpenAIChatErrorBody = { message };
    const type = stringField(source, 'type');
    const code = source['code'];
    if (type) body.type = type;
    if (isString(code) || typeof code === 'number') body.code = String(code);
    return body;
  }
  if (isRecord(parsed) && isString(parsed['error']) && parsed['error'] !== '') return { message: parsed['error'] };
  const raw = text.trim();
  return { message: raw === '' ? 'HTTP error' : raw.slice(0, MAX_RAW_MESSAGE) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
