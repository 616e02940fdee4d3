/**
 * Dialect-A request body → canonical request, checked and converted in one pass: every documented
 * field is checked as it is read (type, range, required), and the first problem is a 400 naming
 * the field's path. Unknown fields are not read; the body itself travels on in `passthrough`, so a
 * same-protocol upstream still receives them.
 */
import type { CanonicalRequest, Converted, ResponseFormat, ThinkingConfig } from '@rosetta/canonical';
import {
  compact,
  convertRoutingFields,
  invalidField,
  isAbsent,
  isStringOrStringArray,
  optionalBoolean,
  optionalEndUser,
  optionalNumber,
  optionalRecord,
  optionalString,
  optionalTags,
  requireObjectBody,
  requireRecord,
  requireString,
  unsupported,
  type JsonObject,
  type NumberRange,
} from '@rosetta/protocols/common';
import { convertOpenAIChatMessages } from './convert-openai-chat-messages';
import { convertOpenAIChatTools } from './convert-openai-chat-tools';

const TEMPERATURE: NumberRange = { min: 0, max: 2 };
const UNIT: NumberRange = { min: 0, max: 1 };
const PENALTY: NumberRange = { min: -2, max: 2 };
const TOKENS: NumberRange = { min: 1, integer: true };
const CHOICES: NumberRange = { min: 1, max: 128, integer: true };
const INTEGER: NumberRange = { integer: true };

export function convertOpenAIChatRequest({ body: raw }: { body: unknown }): Converted<CanonicalRequest> {
  const body = requireObjectBody(raw);
  const routing = convertRoutingFields({ body });
  const model = requireString(body, 'model');
  const messages = convertOpenAIChatMessages({ messages: body['messages'] });
  const stream = optionalBoolean(body, 'stream') ?? false;
  optionalRecord(body, 'stream_options');
  const temperature = optionalNumber(body, 'temperature', '', TEMPERATURE);
  const topP = optionalNumber(body, 'top_p', '', UNIT);
  const maxTokens = optionalNumber(body, 'max_tokens', '', TOKENS);
  const maxCompletionTokens = optionalNumber(body, 'max_completion_tokens', '', TOKENS);
  const candidateCount = optionalNumber(body, 'n', '', CHOICES);
  const seed = optionalNumber(body, 'seed', '', INTEGER);
  const frequencyPenalty = optionalNumber(body, 'frequency_penalty', '', PENALTY);
  const presencePenalty = optionalNumber(body, 'presence_penalty', '', PENALTY);
  const stopSequences = convertStop(body['stop']);
  const tools = convertOpenAIChatTools({ body });
  const user = optionalEndUser(body, 'user');
  const metadata = optionalRecord(body, 'metadata');
  const request: CanonicalRequest = compact({
    model,
    messages,
    ...tools.value,
    parallelToolCalls: optionalBoolean(body, 'parallel_tool_calls'),
    maxOutputTokens: maxCompletionTokens ?? maxTokens,
    temperature,
    topP,
    stopSequences,
    seed,
    frequencyPenalty,
    presencePenalty,
    candidateCount,
    responseFormat: convertResponseFormat(body),
    thinking: convertReasoningEffort(body),
    // `safety_identifier` is the successor of `user`; either identifies the end user.
    user: optionalEndUser(body, 'safety_identifier') ?? user,
    tags: metadata && optionalTags(metadata),
    promptCacheKey: optionalString(body, 'prompt_cache_key'),
    stream,
    routing,
    // The body itself, not a copy: the fast path copies it when it rewrites the model.
    passthrough: { protocol: 'openai', body },
  });
  return { value: request, warnings: tools.warnings };
}

/** A string or up to four strings, as OpenAI takes it. */
function convertStop(stop: unknown): string[] | undefined {
  if (isAbsent(stop)) return undefined;
  if (!isStringOrStringArray(stop, 4)) throw invalidField('stop', 'must be a string or an array of at most 4 strings');
  return typeof stop === 'string' ? [stop] : (stop as string[]);
}

function convertResponseFormat(body: JsonObject): ResponseFormat | undefined {
  const format = optionalRecord(body, 'response_format');
  if (!format) return undefined;
  const type = requireString(format, 'type', 'response_format');
  switch (type) {
    case 'text':
    case 'json_object':
      return { type };
    case 'json_schema': {
      const parent = 'response_format.json_schema';
      const schema = requireRecord(format['json_schema'], parent);
      return compact<ResponseFormat>({
        type: 'json_schema',
        name: optionalString(schema, 'name', parent),
        description: optionalString(schema, 'description', parent),
        // OpenAI lets `schema` be omitted; an empty schema constrains nothing, which is its meaning.
        schema: optionalRecord(schema, 'schema', parent) ?? {},
        strict: optionalBoolean(schema, 'strict', parent),
      });
    }
    default:
      throw unsupported(`response_format type '${type}' (text, json_object or json_schema)`, 'response_format.type');
  }
}

function convertReasoningEffort(body: JsonObject): ThinkingConfig | undefined {
  const effort = optionalString(body, 'reasoning_effort');
  return effort === undefined ? undefined : { enabled: effort !== 'none', effort };
}
