/** Errors in the dialect-B envelope, and error bodies read back from Anthropic upstreams. */
import type { GatewayError } from '@rosetta/canonical';
import { isRecord, stringField } from '@rosetta/protocols/common';

const MAX_RAW_MESSAGE = 500;

/** Anthropic's envelope: `{type:"error", error:{type, message}}`, plus our request_id. */
export function renderAnthropicMessagesError(error: GatewayError, requestId: string): Record<string, unknown> {
  return { type: 'error', error: { type: error.type, message: error.message }, request_id: requestId };
}

export interface AnthropicMessagesErrorBody {
  message: string;
  type?: string;
}

/**
 * The message of an upstream error body: Anthropic nests it in `error`; proxies in front of
 * Anthropic-compatible servers sometimes put `message` at the top; anything else is raw text.
 */
export function parseAnthropicMessagesErrorBody(text: string): AnthropicMessagesErrorBody {
  const parsed = parseJson(text);
  const source = isRecord(parsed) ? (isRecord(parsed['error']) ? parsed['error'] : parsed) : undefined;
  const message = source && stringField(source, 'message');
  if (source && message) {
    const type = stringField(source, 'type');
    return type && type !== 'error' ? { message, type } : { message };
  }
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
