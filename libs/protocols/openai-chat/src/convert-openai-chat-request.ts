/**
 * Dialect-A request body → canonical request. The body has passed the DTOs, but this converter
 * still checks every field it reads: it is the last line before the upstream, and each error
 * names the field path the caller has to fix.
 */
import type { CanonicalRequest, Converted, ResponseFormat, ThinkingConfig } from '@rosetta/canonical';
import { convertOpenAIChatMessages } from './convert-openai-chat-messages';
import { convertOpenAIChatTools } from './convert-openai-chat-tools';
import { compact, convertRoutingFields, optionalBoolean, optionalNumber, optionalRecord, optionalString, optionalStringArray, requireRecord, requireString, unsupported, isString, type JsonObject } from '@rosetta/protocols/common';

export function convertOpenAIChatRequest({ body }: { body: Record<string, unknown> }): Converted<CanonicalRequest> {
  const tools = convertOpenAIChatTools({ body });
  const request: CanonicalRequest = compact({
    model: requireString(body, 'model', ''),
    messages: convertOpenAIChatMessages({ messages: body['messages'] }),
    ...tools.value,
    parallelToolCalls: optionalBoolean(body, 'parallel_tool_calls'),
    maxOutputTokens: optionalNumber(body, 'max_completion_tokens') ?? optionalNumber(body, 'max_tokens'),
    temperature: optionalNumber(body, 'temperature'),
    topP: optionalNumber(body, 'top_p'),
    stopSequences: convertStop(body['stop']),
    seed: optionalNumber(body, 'seed'),
    frequencyPenalty: optionalNumber(body, 'frequency_penalty'),
    presencePenalty: optionalNumber(body, 'presence_penalty'),
    candidateCount: optionalNumber(body, 'n'),
    responseFormat: convertResponseFormat(body),
    thinking: convertReasoningEffort(body),
    // `safety_identifier` is the successor of `user`; either identifies the end user.
    user: optionalString(body, 'safety_identifier') ?? optionalString(body, 'user'),
    stream: optionalBoolean(body, 'stream') ?? false,
    routing: convertRoutingFields({ body }),
    // The body itself, not a copy: the fast path copies it when it rewrites the model.
    passthrough: { protocol: 'openai', body },
  });
  return { value: request, warnings: tools.warnings };
}

function convertStop(stop: unknown): string[] | undefined {
  if (stop === undefined || stop === null) return undefined;
  if (isString(stop)) return [stop];
  return optionalStringArray({ stop }, 'stop');
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
      throw unsupported(`response_format type '${type}'`, 'response_format.type');
  }
}

function convertReasoningEffort(body: JsonObject): ThinkingConfig | undefined {
  const effort = optionalString(body, 'reasoning_effort');
  return effort === undefined ? undefined : { enabled: effort !== 'none', effort };
}
