/**
 * Dialect-B request body → canonical request. The body has passed the DTOs, but this converter
 * still checks every field it reads, and each error names the field path the caller has to fix.
 * Features with no canonical form are dropped with a warning; the untouched body travels along in
 * `passthrough`, so an Anthropic upstream still receives them.
 */
import type { CanonicalRequest, Converted, Message, ResponseFormat, ThinkingConfig } from '@rosetta/canonical';
import {
  compact,
  convertRoutingFields,
  optionalBoolean,
  optionalNumber,
  optionalRecord,
  optionalString,
  optionalStringArray,
  requireRecord,
  requireString,
  unsupported,
  type JsonObject,
} from '@rosetta/protocols/common';
import { convertAnthropicMessagesTextContent } from './convert-anthropic-messages-content';
import { convertAnthropicMessagesMessages } from './convert-anthropic-messages-messages';
import { convertAnthropicMessagesTools } from './convert-anthropic-messages-tools';

export function convertAnthropicMessagesRequest({ body }: { body: Record<string, unknown> }): Converted<CanonicalRequest> {
  const messages = convertAnthropicMessagesMessages({ messages: body['messages'] });
  const tools = convertAnthropicMessagesTools({ body });
  const outputConfig = optionalRecord(body, 'output_config');
  const metadata = optionalRecord(body, 'metadata');
  const request: CanonicalRequest = compact({
    model: requireString(body, 'model', ''),
    messages: [...convertSystem(body), ...messages.value],
    ...tools.value,
    maxOutputTokens: optionalNumber(body, 'max_tokens'),
    temperature: optionalNumber(body, 'temperature'),
    topP: optionalNumber(body, 'top_p'),
    topK: optionalNumber(body, 'top_k'),
    stopSequences: optionalStringArray(body, 'stop_sequences'),
    responseFormat: outputConfig && convertOutputFormat(outputConfig),
    thinking: convertThinking(body, outputConfig),
    user: metadata && optionalString(metadata, 'user_id', 'metadata'),
    stream: optionalBoolean(body, 'stream') ?? false,
    routing: convertRoutingFields({ body }),
    // The body itself, not a copy: the fast path copies it when it rewrites the model.
    passthrough: { protocol: 'anthropic', body },
  });
  return { value: request, warnings: [...messages.warnings, ...tools.warnings] };
}

/** Top-level `system` becomes the first message; an empty prompt is no message at all. */
function convertSystem(body: JsonObject): Message[] {
  const system = body['system'];
  if (system === undefined || system === null || system === '') return [];
  const content = convertAnthropicMessagesTextContent({ content: system, path: 'system' });
  return content.length > 0 ? [{ role: 'system', content }] : [];
}

function convertOutputFormat(outputConfig: JsonObject): ResponseFormat | undefined {
  const parent = 'output_config.format';
  const format = optionalRecord(outputConfig, 'format', 'output_config');
  if (!format) return undefined;
  const type = requireString(format, 'type', parent);
  if (type !== 'json_schema') throw unsupported(`output format type '${type}'`, `${parent}.type`);
  return { type: 'json_schema', schema: requireRecord(format['schema'], `${parent}.schema`) };
}

/**
 * `thinking` and `output_config.effort` together. Effort alone asks for reasoning at that level,
 * as OpenAI's reasoning_effort does; `display: omitted` means the thought text is not wanted back.
 */
function convertThinking(body: JsonObject, outputConfig: JsonObject | undefined): ThinkingConfig | undefined {
  const effort = outputConfig && optionalString(outputConfig, 'effort', 'output_config');
  const raw = optionalRecord(body, 'thinking');
  const thinking = raw && convertThinkingConfig(raw);
  if (effort === undefined) return thinking;
  return { ...(thinking ?? { enabled: true }), effort };
}

function convertThinkingConfig(thinking: JsonObject): ThinkingConfig {
  const type = requireString(thinking, 'type', 'thinking');
  const display = optionalString(thinking, 'display', 'thinking');
  const includeThoughts = display === undefined ? undefined : display !== 'omitted';
  switch (type) {
    case 'enabled':
      return compact({ enabled: true, budgetTokens: optionalNumber(thinking, 'budget_tokens', 'thinking'), includeThoughts });
    case 'adaptive':
    case 'between_tools':
      return compact({ enabled: true, includeThoughts });
    case 'disabled':
      return { enabled: false };
    default:
      throw unsupported(`thinking type '${type}'`, 'thinking.type');
  }
}
