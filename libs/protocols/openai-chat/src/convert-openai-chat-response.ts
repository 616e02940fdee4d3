/**
 * Upstream Chat Completions JSON → canonical response. Reads only the first choice: the gateway
 * asks for one candidate unless the client asked for more, and the canonical response holds one.
 */
import {
  GatewayError,
  type AssistantContentPart,
  type CanonicalResponse,
  type ToolCallPart,
} from '@rosetta/canonical';
import { mapOpenAIChatFinishReason } from './map-openai-chat-finish-reason';
import { mapOpenAIChatUsage } from './map-openai-chat-usage';
import { synthesizeToolCallId, isRecord, numberField, recordField, stringField, type JsonObject } from '@rosetta/protocols/common';

export function convertOpenAIChatResponse({ body }: { body: unknown }): CanonicalResponse {
  const choice = isRecord(body) && Array.isArray(body['choices']) ? body['choices'][0] : undefined;
  if (!isRecord(body) || !isRecord(choice)) {
    throw new GatewayError('upstream_error', 'Upstream service error: response has no choices', { status: 502 });
  }
  const message = recordField(choice, 'message') ?? {};
  const content = convertMessageContent(message);
  const hasToolCalls = content.some((part) => part.type === 'tool_call');
  const response: CanonicalResponse = {
    id: stringField(body, 'id') ?? '',
    model: stringField(body, 'model') ?? '',
    created: numberField(body, 'created') ?? Math.floor(Date.now() / 1000),
    content,
    finishReason: mapOpenAIChatFinishReason(stringField(choice, 'finish_reason'), hasToolCalls),
  };
  const usage = mapOpenAIChatUsage(body['usage']);
  if (usage) response.usage = usage;
  return response;
}

/**
 * Reasoning first (DeepSeek and vLLM send `reasoning_content`, OpenRouter `reasoning`): it came
 * before the answer, and encoders that replay history expect that order.
 */
function convertMessageContent(message: JsonObject): AssistantContentPart[] {
  const content: AssistantContentPart[] = [];
  const reasoning = stringField(message, 'reasoning_content') ?? stringField(message, 'reasoning');
  if (reasoning) content.push({ type: 'thinking', text: reasoning });
  const text = stringField(message, 'content');
  if (text) content.push({ type: 'text', text });
  const refusal = stringField(message, 'refusal');
  if (refusal) content.push({ type: 'refusal', text: refusal });
  const toolCalls = message['tool_calls'];
  if (Array.isArray(toolCalls)) content.push(...toolCalls.flatMap(convertToolCall));
  return content;
}

/** Only function calls have a canonical form; custom-tool calls cannot occur without custom tools. */
function convertToolCall(raw: unknown): ToolCallPart[] {
  if (!isRecord(raw) || stringField(raw, 'type') === 'custom') return [];
  const fn = recordField(raw, 'function');
  if (!fn) return [];
  return [
    {
      type: 'tool_call',
      id: stringField(raw, 'id') || synthesizeToolCallId(),
      name: stringField(fn, 'name') ?? '',
      arguments: stringField(fn, 'arguments') ?? '',
    },
  ];
}
