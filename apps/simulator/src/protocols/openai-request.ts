import { isRecord } from '../http-io';
import type { PromptCacheQuery } from '../prompt-cache/prompt-cache-types';
import type { NeutralMessage, NeutralRequest, NeutralTool, NeutralToolChoice } from '../reply-plan';

/** A request OpenAI would refuse with 400; `param` and `code` are rendered as OpenAI does. */
export class OpenAiRequestError extends Error {
  constructor(
    message: string,
    readonly param: string | null,
    readonly code: string | null = 'invalid_value',
  ) {
    super(message);
    this.name = 'OpenAiRequestError';
  }
}

export interface OpenAiRequest {
  neutral: NeutralRequest;
  /** `stream_options.include_usage`: OpenAI-only, so it stays out of the neutral request. */
  includeUsage: boolean;
  /** Automatic prompt caching, grouped by `prompt_cache_key`. */
  cache: PromptCacheQuery;
}

function missing(param: string): OpenAiRequestError {
  return new OpenAiRequestError(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
}

function invalidType(param: string, expected: string): OpenAiRequestError {
  return new OpenAiRequestError(`Invalid type for '${param}': expected ${expected}.`, param, 'invalid_type');
}

/** Text of string or array-of-parts content; non-text parts (images, audio, files) carry none. */
function contentText(content: unknown, param: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalidType(param, 'a string or an array of content parts');
  const texts: string[] = [];
  content.forEach((part, index) => {
    if (!isRecord(part) || typeof part['type'] !== 'string') throw invalidType(`${param}[${index}]`, 'a content part');
    if (part['type'] === 'text' && typeof part['text'] === 'string') texts.push(part['text']);
    if (part['type'] === 'refusal' && typeof part['refusal'] === 'string') texts.push(part['refusal']);
  });
  return texts.join('\n');
}

function toolCallIds(value: unknown, param: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalidType(param, 'an array');
  return value.map((call, index) => {
    if (!isRecord(call) || typeof call['id'] !== 'string') throw missing(`${param}[${index}].id`);
    return call['id'];
  });
}

function convertMessage(value: unknown, index: number): NeutralMessage {
  const param = `messages[${index}]`;
  if (!isRecord(value)) throw invalidType(param, 'an object');
  const role = value['role'];
  const text = contentText(value['content'], `${param}.content`);
  switch (role) {
    case 'system':
    case 'developer':
      return { role: 'system', text };
    case 'user':
      return { role: 'user', text };
    case 'assistant': {
      const ids = toolCallIds(value['tool_calls'], `${param}.tool_calls`);
      return ids ? { role: 'assistant', text, toolCallIds: ids } : { role: 'assistant', text };
    }
    case 'tool':
    case 'function': {
      const id = role === 'tool' ? value['tool_call_id'] : value['name'];
      if (typeof id !== 'string') throw missing(`${param}.${role === 'tool' ? 'tool_call_id' : 'name'}`);
      return { role: 'tool', text: '', toolResults: [{ toolCallId: id, text }] };
    }
    default:
      throw new OpenAiRequestError(
        `Invalid value: '${String(role)}'. Supported values are: 'system', 'developer', 'user', 'assistant', 'tool', and 'function'.`,
        `${param}.role`,
      );
  }
}

/** Function tools only: custom tools have no JSON arguments for the simulator to invent. */
function convertTools(value: unknown): NeutralTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidType('tools', 'an array');
  const tools: NeutralTool[] = [];
  value.forEach((tool, index) => {
    if (!isRecord(tool)) throw invalidType(`tools[${index}]`, 'an object');
    if (tool['type'] !== 'function') return;
    const fn = tool['function'];
    if (!isRecord(fn) || typeof fn['name'] !== 'string') throw missing(`tools[${index}].function.name`);
    tools.push({ name: fn['name'], parameters: fn['parameters'] });
  });
  return tools;
}

function convertToolChoice(value: unknown, hasTools: boolean): NeutralToolChoice {
  if (value === undefined || value === null) return hasTools ? 'auto' : 'none';
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (isRecord(value)) {
    const fn = value['function'];
    if (value['type'] === 'function' && isRecord(fn) && typeof fn['name'] === 'string') return { name: fn['name'] };
    const allowed = value['allowed_tools'];
    if (value['type'] === 'allowed_tools' && isRecord(allowed)) return allowed['mode'] === 'required' ? 'required' : 'auto';
    if (value['type'] === 'custom') return 'auto';
  }
  throw new OpenAiRequestError("Invalid value for 'tool_choice'.", 'tool_choice');
}

function convertMaxTokens(body: Record<string, unknown>): number | undefined {
  for (const param of ['max_completion_tokens', 'max_tokens']) {
    const value = body[param];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw invalidType(param, 'an integer');
    if (value < 1) {
      throw new OpenAiRequestError(`Invalid '${param}': integer below minimum value. Expected a value >= 1, but got ${value} instead.`, param, 'integer_below_min_value');
    }
    return value;
  }
  return undefined;
}

function convertStop(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((entry): entry is string => typeof entry === 'string')) return value;
  throw invalidType('stop', 'a string or an array of strings');
}

function optionalBoolean(value: unknown, param: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalidType(param, 'a boolean');
  return value;
}

/** `reasoning_effort` other than 'none' turns reasoning on. */
function convertReasoningEffort(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'string') throw invalidType('reasoning_effort', 'a string');
  return value !== 'none';
}

/** Tool messages carry no function name; take it from the assistant call they answer. */
function nameToolResults(messages: NeutralMessage[], wire: readonly unknown[]): NeutralMessage[] {
  const names = new Map<string, string>();
  for (const message of wire) {
    if (!isRecord(message) || message['role'] !== 'assistant' || !Array.isArray(message['tool_calls'])) continue;
    for (const call of message['tool_calls']) {
      const fn = isRecord(call) ? call['function'] : undefined;
      if (isRecord(call) && typeof call['id'] === 'string' && isRecord(fn) && typeof fn['name'] === 'string') {
        names.set(call['id'], fn['name']);
      }
    }
  }
  return messages.map((message) => {
    if (!message.toolResults) return message;
    const toolResults = message.toolResults.map((result) => {
      const name = names.get(result.toolCallId);
      return name === undefined ? result : { ...result, name };
    });
    return { ...message, toolResults };
  });
}

/**
 * `prompt_cache_key` and `prompt_cache_retention` (Chat Completions and Responses alike): OpenAI
 * caches every long prompt; the key only groups prompts that should meet.
 */
export function readPromptCacheOptions(body: Record<string, unknown>): PromptCacheQuery {
  const key = body['prompt_cache_key'];
  if (key !== undefined && key !== null && typeof key !== 'string') throw invalidType('prompt_cache_key', 'a string');
  const retention = body['prompt_cache_retention'] ?? 'in_memory';
  if (retention !== 'in_memory' && retention !== '24h') {
    throw new OpenAiRequestError(`Invalid value: '${String(retention)}'. Supported values are: 'in_memory' and '24h'.`, 'prompt_cache_retention');
  }
  return typeof key === 'string' ? { kind: 'automatic', key, retention } : { kind: 'automatic', retention };
}

/** Wire request → neutral request. Throws OpenAiRequestError for what OpenAI rejects with 400. */
export function convertOpenAiRequest(body: unknown): OpenAiRequest {
  if (!isRecord(body)) throw new OpenAiRequestError('The request body must be a JSON object.', null, null);
  if (typeof body['model'] !== 'string' || body['model'] === '') throw missing('model');
  if (body['messages'] === undefined) throw missing('messages');
  if (!Array.isArray(body['messages'])) throw invalidType('messages', 'an array');
  const tools = convertTools(body['tools']);
  const streamOptions = isRecord(body['stream_options']) ? body['stream_options'] : {};
  const neutral: NeutralRequest = {
    model: body['model'],
    messages: nameToolResults(body['messages'].map(convertMessage), body['messages']),
    tools,
    toolChoice: convertToolChoice(body['tool_choice'], tools.length > 0),
    stream: optionalBoolean(body['stream'], 'stream') ?? false,
  };
  if (convertReasoningEffort(body['reasoning_effort'])) neutral.thinkingEnabled = true;
  const maxTokens = convertMaxTokens(body);
  if (maxTokens !== undefined) neutral.maxTokens = maxTokens;
  const stop = convertStop(body['stop']);
  if (stop !== undefined) neutral.stopSequences = stop;
  const parallel = optionalBoolean(body['parallel_tool_calls'], 'parallel_tool_calls');
  if (parallel !== undefined) neutral.parallelToolCalls = parallel;
  const includeUsage = optionalBoolean(streamOptions['include_usage'], 'stream_options.include_usage') ?? false;
  return { neutral, includeUsage, cache: readPromptCacheOptions(body) };
}
