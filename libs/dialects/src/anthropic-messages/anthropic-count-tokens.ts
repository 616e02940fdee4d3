import { estimatePromptTokens } from '@rosetta/limits';
import { convertAnthropicMessagesRequest } from '@rosetta/protocols/anthropic-messages';
import type { RoutingService } from '@rosetta/routing';
import { validateAnthropicCountTokensRequest } from './anthropic-messages.validate';

/** Dialect B's `POST /v1/messages/count_tokens`: an estimate from a real tokenizer; the model id is checked like any request's. */
export function anthropicCountTokens(routing: RoutingService, raw: unknown): { input_tokens: number } {
  const body = { max_tokens: 1, ...validateAnthropicCountTokensRequest(raw) };
  const { value: request } = convertAnthropicMessagesRequest({ body });
  routing.resolveModels(request);
  return { input_tokens: estimatePromptTokens(request) };
}
