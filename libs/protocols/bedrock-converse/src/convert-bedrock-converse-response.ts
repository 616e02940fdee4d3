/**
 * Converse response → canonical response. Reasoning keeps its signature, bound to
 * `bedrock-converse`, so it goes back to Bedrock (and only there) on the next turn; redacted
 * reasoning likewise. Converse gives the reply no id, so one is made, and names no model: the
 * executor writes the served model over `model`.
 */
import { randomUUID } from 'node:crypto';
import { GatewayError, type AssistantContentPart, type CanonicalResponse } from '@rosetta/canonical';
import { isRecord, recordField, stringField, type JsonObject } from '@rosetta/protocols/common';
import { mapBedrockConverseStopReason } from './map-bedrock-converse-stop-reason';
import { mapBedrockConverseUsage } from './map-bedrock-converse-usage';

/** An id for a reply Bedrock gave none, shaped like Anthropic's so Claude-minded clients accept it. */
export function bedrockResponseId(): string {
  return `msg_bdrk_${randomUUID().replace(/-/g, '')}`;
}

export function convertBedrockConverseResponse(body: JsonObject): CanonicalResponse {
  const content = recordField(recordField(body, 'output') ?? {}, 'message')?.['content'];
  if (!Array.isArray(content)) throw new GatewayError('upstream_error', 'Upstream service error: response has no output message', { status: 502 });
  const usage = mapBedrockConverseUsage(body['usage']);
  return {
    id: bedrockResponseId(),
    model: '',
    created: Math.floor(Date.now() / 1000),
    content: content.flatMap((block): AssistantContentPart[] => (isRecord(block) ? toParts(block) : [])),
    finishReason: mapBedrockConverseStopReason(stringField(body, 'stopReason')),
    ...(usage ? { usage } : {}),
  };
}

/** One content block; blocks with no canonical form (citations, images a model returns) are left out. */
function toParts(block: JsonObject): AssistantContentPart[] {
  if (typeof block['text'] === 'string') return block['text'] === '' ? [] : [{ type: 'text', text: block['text'] }];
  const toolUse = recordField(block, 'toolUse');
  if (toolUse) {
    const input = toolUse['input'];
    return [{ type: 'tool_call', id: stringField(toolUse, 'toolUseId') ?? '', name: stringField(toolUse, 'name') ?? '', arguments: input === undefined ? '{}' : JSON.stringify(input) }];
  }
  const reasoning = recordField(block, 'reasoningContent');
  if (!reasoning) return [];
  const redacted = reasoning['redactedContent'];
  if (typeof redacted === 'string') return [{ type: 'redacted_thinking', data: redacted, protocol: 'bedrock-converse' }];
  const text = recordField(reasoning, 'reasoningText') ?? {};
  const signature = stringField(text, 'signature');
  return [{ type: 'thinking', text: stringField(text, 'text') ?? '', ...(signature ? { signature: { protocol: 'bedrock-converse', value: signature } } : {}) }];
}
