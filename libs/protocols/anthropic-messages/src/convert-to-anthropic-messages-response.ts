/**
 * Canonical response → dialect-B JSON, shaped like Anthropic's own so every client library parses
 * it. Signatures from other providers travel wrapped with their origin, so a client that sends the
 * turn back cannot hand them to the wrong upstream; redacted thinking goes only where it came from.
 * A tool call's foreign signature rides in an empty thinking block just before the call.
 */
import { GatewayError, type AssistantContentPart, type CanonicalResponse, type ToolCallPart } from '@rosetta/canonical';
import type {
  RedactedThinkingBlock,
  StopReason,
  TextBlockParam,
  ThinkingBlock,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { wrapSignature } from '@rosetta/protocols/common';
import { toAnthropicMessagesStopReason } from './map-anthropic-messages-stop-reason';
import { toAnthropicMessagesUsage, type AnthropicMessagesUsage } from './map-anthropic-messages-usage';
import { callSignatureCarrier } from './anthropic-messages-call-signature';
import { parseToolArguments } from './parse-tool-arguments';

export type AnthropicMessagesContentBlock = TextBlockParam | ThinkingBlock | RedactedThinkingBlock | ToolUseBlockParam;

export interface AnthropicMessagesResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicMessagesContentBlock[];
  stop_reason: StopReason;
  stop_sequence: string | null;
  usage: AnthropicMessagesUsage;
}

const NO_USAGE = { inputTokens: 0, outputTokens: 0 };

export function convertToAnthropicMessagesResponse({ response }: { response: CanonicalResponse }): Record<string, unknown> {
  const content = response.content.flatMap(toBlock);
  const stopReason = toAnthropicMessagesStopReason(response.finishReason, content.some((block) => block.type === 'tool_use'));
  const message: AnthropicMessagesResponse = {
    id: toAnthropicMessageId(response.id),
    type: 'message',
    role: 'assistant',
    model: response.model,
    content,
    stop_reason: stopReason,
    stop_sequence: stopReason === 'stop_sequence' ? (response.finishReason.stopSequence ?? null) : null,
    usage: toAnthropicMessagesUsage(response.usage ?? NO_USAGE),
  };
  return { ...message };
}

/** Anthropic ids start with `msg_`; some clients check. */
export function toAnthropicMessageId(id: string): string {
  return id.startsWith('msg_') ? id : `msg_${id}`;
}

function toBlock(part: AssistantContentPart): AnthropicMessagesContentBlock[] {
  switch (part.type) {
    case 'text':
    case 'refusal':
      return part.text === '' ? [] : [{ type: 'text', text: part.text }];
    case 'thinking':
      return [{ type: 'thinking', thinking: part.text, signature: part.signature ? wrapSignature(part.signature, 'anthropic') : '' }];
    case 'redacted_thinking':
      return part.protocol === 'anthropic' ? [{ type: 'redacted_thinking', data: part.data }] : [];
    case 'tool_call':
      return [...callSignatureCarrier(part.signature), toToolUse(part)];
  }
}

/**
 * Arguments that are not a JSON object (a model that wrote broken JSON) cannot be shown as
 * `input`; replacing them with `{}` would have the client run the tool with nothing, so the
 * answer fails instead, as an upstream fault.
 */
function toToolUse(part: ToolCallPart): ToolUseBlockParam {
  const input = parseToolArguments(part.arguments);
  if (!input) {
    throw new GatewayError('upstream_error', `Upstream service error: the arguments of tool call '${part.id}' are not a JSON object`, {
      status: 502,
    });
  }
  return { type: 'tool_use', id: part.id, name: part.name, input };
}
