import { anthropicMessagesUpstream } from '@rosetta/protocols/anthropic-messages';
import { bedrockConverseUpstream } from '@rosetta/protocols/bedrock-converse';
import type { UpstreamProtocol } from '@rosetta/protocols/common';
import { geminiUpstream } from '@rosetta/protocols/gemini';
import { openAIChatUpstream } from '@rosetta/protocols/openai-chat';
import { openAIResponsesUpstream } from '@rosetta/protocols/openai-responses';

/**
 * Every upstream protocol Rosetta can call, listed once: the providers library makes an adapter
 * of each, the registry accepts their ids as a provider's `protocol`, the router reads their
 * parameters. A new upstream protocol is one more line here (docs/architecture.md).
 */
export const UPSTREAM_PROTOCOLS: readonly UpstreamProtocol[] = [openAIChatUpstream, anthropicMessagesUpstream, geminiUpstream, openAIResponsesUpstream, bedrockConverseUpstream];

/** The ids, for validating a provider's `protocol`. */
export const UPSTREAM_PROTOCOL_IDS: readonly string[] = UPSTREAM_PROTOCOLS.map((p) => p.id);

export function upstreamProtocol(id: string): UpstreamProtocol | undefined {
  return UPSTREAM_PROTOCOLS.find((p) => p.id === id);
}
