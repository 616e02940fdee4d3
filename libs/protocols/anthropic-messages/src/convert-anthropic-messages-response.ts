/**
 * Upstream Anthropic Messages JSON → canonical response. Signatures are kept with their protocol so
 * they go back to Anthropic untouched and to no one else; server-tool blocks (web search results,
 * code execution) have no canonical form and are left out.
 */
import { GatewayError, type AssistantContentPart, type CanonicalResponse } from '@rosetta/canonical';
import { isRecord, stringField, type JsonObject } from '@rosetta/protocols/common';
import { mapAnthropicMessagesStopReason } from './map-anthropic-messages-stop-reason';
import { mapAnthropicMessagesUsage } from './map-anthropic-messages-usage';

export function convertAnthropicMessagesResponse({ body }: { body: unknown }): CanonicalResponse {
  if (!isRecord(body) || !Array.isArray(body['content'])) {
    throw new GatewayError('upstream_error', 'Upstream service error: response has no content', { status: 502 });
  }
  const response: CanonicalResponse = {
    id: stringField(body, 'id') ?? '',
    model: stringField(body, 'model') ?? '',
    // Anthropic sends no creation time; the gateway's receipt time stands in.
    created: Math.floor(Date.now() / 1000),
    content: body['content'].flatMap(convertBlock),
    finishReason: mapAnthropicMessagesStopReason(stringField(body, 'stop_reason'), stringField(body, 'stop_sequence')),
  };
  const usage = mapAnthropicMessagesUsage(body['usage']);
  if (usage) response.usage = usage;
  return response;
}

function convertBlock(raw: unknown): AssistantContentPart[] {
  if (!isRecord(raw)) return [];
  switch (stringField(raw, 'type')) {
    case 'text':
      return [{ type: 'text', text: stringField(raw, 'text') ?? '' }];
    case 'thinking':
      return [convertThinking(raw)];
    case 'redacted_thinking':
      return [{ type: 'redacted_thinking', data: stringField(raw, 'data') ?? '', protocol: 'anthropic' }];
    case 'tool_use':
      return [
        {
          type: 'tool_call',
          id: stringField(raw, 'id') ?? '',
          name: stringField(raw, 'name') ?? '',
          arguments: JSON.stringify(raw['input'] ?? {}),
        },
      ];
    default:
      return [];
  }
}

function convertThinking(block: JsonObject): AssistantContentPart {
  const signature = stringField(block, 'signature');
  const text = stringField(block, 'thinking') ?? '';
  return signature ? { type: 'thinking', text, signature: { protocol: 'anthropic', value: signature } } : { type: 'thinking', text };
}
