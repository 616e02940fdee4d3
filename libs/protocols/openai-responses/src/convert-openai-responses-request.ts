/**
 * Responses request body → canonical request, validating as it reads: every error names the field
 * the caller has to fix. `previous_response_id` and `item_reference`s are expanded before this
 * (see responses-conversation.ts): what arrives here is the whole conversation.
 */
import type { CanonicalRequest, Converted, ResponseFormat, ThinkingConfig } from '@rosetta/canonical';
import {
  compact,
  convertRoutingFields,
  optionalBoolean,
  optionalEndUser,
  optionalEnum,
  optionalNumber,
  optionalRecord,
  optionalString,
  optionalStringArray,
  optionalTags,
  requireString,
  unsupported,
  type JsonObject,
  type NumberRange,
} from '@rosetta/protocols/common';
import { convertOpenAIResponsesInput } from './convert-openai-responses-input';
import { convertOpenAIResponsesTools } from './convert-openai-responses-tools';

const EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
const SUMMARIES = ['auto', 'concise', 'detailed'] as const;
/** OpenAI's range for both penalties. */
const PENALTY: NumberRange = { min: -2, max: 2 };

export function convertOpenAIResponsesRequest({ body }: { body: JsonObject }): Converted<CanonicalRequest> {
  refuseUnsupported(body);
  const input = convertOpenAIResponsesInput({ input: body['input'], instructions: optionalString(body, 'instructions') });
  const tools = convertOpenAIResponsesTools({ body });
  const metadata = checkStateFields(body);
  const request: CanonicalRequest = compact({
    model: requireString(body, 'model', ''),
    messages: input.value,
    ...tools.value,
    parallelToolCalls: optionalBoolean(body, 'parallel_tool_calls'),
    maxOutputTokens: optionalNumber(body, 'max_output_tokens'),
    temperature: optionalNumber(body, 'temperature'),
    topP: optionalNumber(body, 'top_p'),
    presencePenalty: optionalNumber(body, 'presence_penalty', '', PENALTY),
    frequencyPenalty: optionalNumber(body, 'frequency_penalty', '', PENALTY),
    responseFormat: convertTextFormat(body),
    thinking: convertReasoning(body),
    user: optionalEndUser(body, 'safety_identifier') ?? optionalEndUser(body, 'user'),
    tags: metadata && optionalTags(metadata),
    promptCacheKey: optionalString(body, 'prompt_cache_key'),
    stream: optionalBoolean(body, 'stream') ?? false,
    routing: convertRoutingFields({ body }),
    passthrough: { protocol: 'openai-responses', body },
  });
  return { value: request, warnings: [...input.warnings, ...tools.warnings] };
}

/** Features that live on OpenAI's own servers: a clear 400 rather than a silent difference. */
function refuseUnsupported(body: JsonObject): void {
  if (optionalBoolean(body, 'background') === true) throw unsupported("background responses ('background': true)", 'background');
  if (body['conversation'] !== undefined && body['conversation'] !== null) throw unsupported("'conversation' (continue with 'previous_response_id')", 'conversation');
  if (body['prompt'] !== undefined && body['prompt'] !== null) throw unsupported("stored prompt templates ('prompt')", 'prompt');
}

/**
 * Fields read elsewhere (storage, the answer's echo), checked here so a bad one is a 400 up front.
 * Metadata values are strings, as OpenAI's are, but for `tags` (the gateway's, a list of strings).
 */
function checkStateFields(body: JsonObject): JsonObject | undefined {
  optionalBoolean(body, 'store');
  optionalString(body, 'previous_response_id');
  optionalStringArray(body, 'include');
  optionalEnum(body, 'truncation', ['auto', 'disabled'] as const);
  const metadata = optionalRecord(body, 'metadata');
  for (const key of Object.keys(metadata ?? {})) if (key !== 'tags') optionalString(metadata!, key, 'metadata');
  optionalRecord(body, 'stream_options');
  return metadata;
}

function convertTextFormat(body: JsonObject): ResponseFormat | undefined {
  const text = optionalRecord(body, 'text');
  const format = text && optionalRecord(text, 'format', 'text');
  if (!format) return undefined;
  const type = requireString(format, 'type', 'text.format');
  switch (type) {
    case 'text':
    case 'json_object':
      return { type };
    case 'json_schema':
      return compact<ResponseFormat>({
        type: 'json_schema',
        name: optionalString(format, 'name', 'text.format'),
        description: optionalString(format, 'description', 'text.format'),
        schema: optionalRecord(format, 'schema', 'text.format') ?? {},
        strict: optionalBoolean(format, 'strict', 'text.format'),
      });
    default:
      throw unsupported(`text.format type '${type}'`, 'text.format.type');
  }
}

function convertReasoning(body: JsonObject): ThinkingConfig | undefined {
  const reasoning = optionalRecord(body, 'reasoning');
  if (!reasoning) return undefined;
  const effort = optionalEnum(reasoning, 'effort', EFFORTS, 'reasoning');
  const summary = optionalEnum(reasoning, 'summary', SUMMARIES, 'reasoning') ?? optionalEnum(reasoning, 'generate_summary', SUMMARIES, 'reasoning');
  // A summary alone asks nothing of the model's reasoning: its default applies (Codex sends
  // `summary: "auto"` on every turn, and would otherwise switch thinking on for every upstream).
  if (effort === undefined) return undefined;
  return compact({ enabled: effort !== 'none', effort, includeThoughts: summary !== undefined ? true : undefined });
}
