import type { ClientDialect } from '@rosetta/protocols/common';
import { renderAnthropicMessagesError } from './anthropic-messages-error';

/** Dialect B, Anthropic messages: `/v1/messages` and `/v1/messages/count_tokens`. */
export const anthropicMessagesDialect: ClientDialect = {
  id: 'anthropic',
  ownsPath: (path) => path.startsWith('/v1/messages') || /\/v1\/messages(?:\/count_tokens)?$/.test(path),
  credential: {},
  renderError: renderAnthropicMessagesError,
};
