/**
 * Upstream Responses output items → canonical assistant content. Item types the canonical model
 * has no place for (hosted-tool calls) are skipped.
 */
import type { AssistantContentPart } from '@rosetta/canonical';
import { compact, isRecord, stringField, synthesizeToolCallId, type JsonObject } from '@rosetta/protocols/common';
import { reasoningOrigin } from './reasoning-signature';
import { customArguments, flatName } from './tool-names';

export function convertOpenAIResponsesOutput(output: unknown): AssistantContentPart[] {
  if (!Array.isArray(output)) return [];
  return output.filter(isRecord).flatMap(convertItem);
}

export function convertItem(item: JsonObject): AssistantContentPart[] {
  switch (stringField(item, 'type')) {
    case 'message':
      return (Array.isArray(item['content']) ? item['content'] : []).filter(isRecord).flatMap((part): AssistantContentPart[] => {
        if (part['type'] === 'output_text') return [{ type: 'text', text: stringField(part, 'text') ?? '' }];
        if (part['type'] === 'refusal') return [{ type: 'refusal', text: stringField(part, 'refusal') ?? '' }];
        return [];
      });
    case 'reasoning':
      return [reasoningPart(item)];
    case 'function_call':
      return [{ type: 'tool_call', id: callId(item), name: flatName(stringField(item, 'namespace'), stringField(item, 'name') ?? ''), arguments: stringField(item, 'arguments') ?? '{}' }];
    case 'custom_tool_call':
      return [{ type: 'tool_call', id: callId(item), name: flatName(stringField(item, 'namespace'), stringField(item, 'name') ?? ''), arguments: customArguments(stringField(item, 'input') ?? '') }];
    default:
      return [];
  }
}

export function reasoningPart(item: JsonObject): AssistantContentPart {
  const texts = summaryTexts(item);
  const origin = reasoningOrigin(stringField(item, 'id'), stringField(item, 'encrypted_content'));
  if ('redacted' in origin) return { type: 'redacted_thinking', ...origin.redacted };
  return compact({ type: 'thinking' as const, text: texts.join('\n\n'), signature: origin.signature });
}

function summaryTexts(item: JsonObject): string[] {
  const read = (list: unknown): string[] => (Array.isArray(list) ? list.filter(isRecord).map((p) => stringField(p, 'text') ?? '') : []);
  const summary = read(item['summary']);
  return summary.length > 0 ? summary : read(item['content']);
}

function callId(item: JsonObject): string {
  return stringField(item, 'call_id') || synthesizeToolCallId();
}
