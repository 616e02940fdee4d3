import type { GatewayError } from '@rosetta/canonical';

/** Anthropic's envelope: `{type:"error", error:{type, message}}`, plus our request_id. */
export function renderAnthropicMessagesError(error: GatewayError, requestId: string): Record<string, unknown> {
  return { type: 'error', error: { type: error.type, message: error.message }, request_id: requestId };
}
