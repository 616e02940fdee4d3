/**
 * Dialect-B request body → canonical request, checked and converted in one pass: every documented
 * field is checked as it is read, and the first problem is a 400 naming the field's path. Features
 * with no canonical form are dropped with a warning; the untouched body travels along in
 * `passthrough`, so an Anthropic upstream still receives them.
 *
 * `countTokens`: the body of `/v1/messages/count_tokens` (and of `POST /v1/route`), where
 * `max_tokens` is optional and the sampling fields are only type-checked: they change no count.
 */
import type { CanonicalRequest, Converted, Message, ResponseFormat, ThinkingConfig } from '@rosetta/canonical';
import {
  compact,
  convertRoutingFields,
  optionalNumber,
  optionalBoolean,
  optionalEndUser,
  optionalRecord,
  optionalString,
  optionalStringArray,
  optionalTags,
  requireEnum,
  requireNumber,
  requireObjectBody,
  requireRecord,
  requireString,
  unsupported,
  type JsonObject,
  type NumberRange,
} from '@rosetta/protocols/common';
import { convertAnthropicMessagesTextContent } from './convert-anthropic-messages-content';
import { convertAnthropicMessagesMessages } from './convert-anthropic-messages-messages';
import { convertAnthropicMessagesTools } from './convert-anthropic-messages-tools';

const TOKENS: NumberRange = { min: 1, integer: true };
const UNIT: NumberRange = { min: 0, max: 1 };
const TOP_K: NumberRange = { min: 0, integer: true };
const THINKING_BUDGET: NumberRange = { min: 1024, integer: true };
const SYSTEM_SHAPE = 'must be a string or an array of text blocks';

export function convertAnthropicMessagesRequest({ body: raw, countTokens = false }: { body: unknown; countTokens?: boolean }): Converted<CanonicalRequest> {
  const body = requireObjectBody(raw);
  const routing = convertRoutingFields({ body });
  const model = requireString(body, 'model');
  const messages = convertAnthropicMessagesMessages({ messages: body['messages'] });
  const system = convertSystem(body);
  const tools = convertAnthropicMessagesTools({ body });
  const thinkingConfig = optionalRecord(body, 'thinking');
  const thinking = thinkingConfig && convertThinkingConfig(thinkingConfig);
  const ranged = (range: NumberRange): NumberRange | undefined => (countTokens ? undefined : range);
  const maxOutputTokens = countTokens ? optionalNumber(body, 'max_tokens') : requireNumber(body, 'max_tokens', '', TOKENS);
  const stream = optionalBoolean(body, 'stream') ?? false;
  const temperature = optionalNumber(body, 'temperature', '', ranged(UNIT));
  const topP = optionalNumber(body, 'top_p', '', ranged(UNIT));
  const topK = optionalNumber(body, 'top_k', '', ranged(TOP_K));
  const stopSequences = optionalStringArray(body, 'stop_sequences');
  const metadata = optionalRecord(body, 'metadata');
  if (!countTokens) optionalString(body, 'service_tier');
  const outputConfig = optionalRecord(body, 'output_config');
  const request: CanonicalRequest = compact({
    model,
    messages: [...system, ...messages.value],
    ...tools.value,
    maxOutputTokens,
    temperature,
    topP,
    topK,
    stopSequences,
    responseFormat: outputConfig && convertOutputFormat(outputConfig),
    thinking: withEffort(thinking, outputConfig),
    user: metadata && optionalEndUser(metadata, 'user_id', 'metadata'),
    tags: metadata && optionalTags(metadata),
    stream,
    routing,
    // The body itself, not a copy: the fast path copies it when it rewrites the model.
    passthrough: { protocol: 'anthropic', body },
  });
  return { value: request, warnings: [...messages.warnings, ...tools.warnings] };
}

/** Top-level `system` becomes the first message; an empty prompt is no message at all. */
function convertSystem(body: JsonObject): Message[] {
  const system = body['system'];
  if (system === undefined || system === '') return [];
  // Unlike other fields, an explicit `null` is not taken for absent: it is neither shape.
  const content = convertAnthropicMessagesTextContent({ content: system, path: 'system', shape: SYSTEM_SHAPE });
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
function withEffort(thinking: ThinkingConfig | undefined, outputConfig: JsonObject | undefined): ThinkingConfig | undefined {
  const effort = outputConfig && optionalString(outputConfig, 'effort', 'output_config');
  if (effort === undefined) return thinking;
  return { ...(thinking ?? { enabled: true }), effort };
}

function convertThinkingConfig(thinking: JsonObject): ThinkingConfig {
  const type = requireEnum(thinking, 'type', ['enabled', 'disabled', 'adaptive'] as const, 'thinking');
  const display = optionalString(thinking, 'display', 'thinking');
  const includeThoughts = display === undefined ? undefined : display !== 'omitted';
  switch (type) {
    case 'enabled':
      return compact({ enabled: true, budgetTokens: requireNumber(thinking, 'budget_tokens', 'thinking', THINKING_BUDGET), includeThoughts });
    case 'adaptive':
      return compact({ enabled: true, includeThoughts });
    case 'disabled':
      return { enabled: false };
  }
}
