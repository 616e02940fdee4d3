/** Errors in Google's envelope, and error bodies read back from Gemini upstreams. */
import type { GatewayError } from '@rosetta/canonical';
import { isRecord, isString, stringField } from '@rosetta/protocols/common';

const RPC_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  402: 'FAILED_PRECONDITION',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  422: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function geminiRpcStatus(httpStatus: number): string {
  return RPC_STATUS[httpStatus] ?? (httpStatus >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT');
}

/** Google's envelope: `{error:{code, message, status}}`, plus our type and request_id. */
export function renderGeminiError(error: GatewayError, requestId: string): Record<string, unknown> {
  return {
    error: { code: error.status, message: error.message, status: geminiRpcStatus(error.status), type: error.type },
    request_id: requestId,
  };
}

const MAX_RAW_MESSAGE = 500;

export interface GeminiErrorBody {
  message: string;
  /** Google's RPC status, e.g. `RESOURCE_EXHAUSTED`. */
  status?: string;
}

/**
 * The message of an upstream error body: `{error: {code, message, status}}`, or that inside a
 * one-element array (how a streamed call without `alt=sse` fails); anything else is reported as
 * raw text.
 */
export function parseGeminiErrorBody(text: string): GeminiErrorBody {
  let parsed = parseJson(text);
  if (Array.isArray(parsed)) parsed = parsed[0];
  const error = isRecord(parsed) ? parsed['error'] : undefined;
  if (isRecord(error)) {
    const message = stringField(error, 'message');
    const status = stringField(error, 'status');
    if (message) return status ? { message, status } : { message };
  }
  if (isString(error) && error !== '') return { message: error };
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
