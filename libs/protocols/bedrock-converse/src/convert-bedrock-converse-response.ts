/**
 * Converse response → canonical response. Reasoning keeps its signature, bound to
 * `bedrock-converse`, so it goes back to Bedrock (and only there) on the next turn; Converse gives
 * the reply no id, so one is made.
 */
import { randomUUID } from 'node:crypto';
import type { AssistantContentPart, CanonicalResponse } from '@rosetta/canonical';
import { isRecord, recordField, stringField, type JsonObject } from '@rosetta/protocols/common';
import { mapBedrockConverseStopReason } from './map-bedrock-converse-stop-reason';
import { mapBedrockConverseUsage } from './map-bedrock-converse-usage';

export function bedrockResponseId(): string {
  return `msg_bdrk_${randomUUID().replace(/-/g, '')}`;
}

/** `model`: Converse names none; the gateway writes the public id over it. */
export function convertBedrockConverseResponse(body: JsonObject, model = ''): CanonicalResponse {
  const message = recordField(recordField(body, 'output') ?? {}, 'message') ?? {};
  const content = Array.isArray(message['content']) ? message['content'] : [];
  const parts = content.flatMap((block): AssistantContentPart[] => (isRecord(block) ? toParts(block) : []));
  const usage = mapBedrockConverseUsage(body['usage']);
  return {
    id: bedrockResponseId(),
    model,
    created: Math.floor(Date.now() / 1000),
    content: parts,
    finishReason: mapBedrockConverseStopReason(stringField(body, 'stopReason')),
    ...(usage ? { usage } : {}),
  };
}

function toParts(block: JsonObject): AssistantContentPart[] {
  if (typeof block['text'] === 'string') return [{ type: 'text', text: block['text'] }];
  const toolUse = recordField(block, 'toolUse');
  if (toolUse) {
    const input = toolUse['input'];
    return [{ type: 'tool_call', id: stringField(toolUse, 'toolUseId') ?? '', name: stringField(toolUse, 'name') ?? '', arguments: input === undefined ? '{}' : JSON.stringify(input) }];
  }
  const reasoning = recordField(block, 'reasoningContent');
  if (reasoning) {
    const redacted = reasoning['redactedContent'];
    if (typeof redacted === 'string') return [{ type: 'redacted_thinking', data: redacted, protocol: 'bedrock-converse' }];
    const text = recordField(reasoning, 'reasoningText') ?? {};
    const signature = stringField(text, 'signature');
    return [{ type: 'thinking', text: stringField(text, 'text') ?? '', ...(signature ? { signature: { protocol: 'bedrock-converse', value: signature } } : {}) }];
  }
  return [];
}
