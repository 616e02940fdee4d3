import { isRecord } from '../http-io';
import type { NeutralMessage, NeutralRequest, NeutralTool, NeutralToolChoice, NeutralToolResult } from '../reply-plan';

/** A request Gemini would refuse with 400 INVALID_ARGUMENT. */
export class GeminiRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GeminiRequestError';
  }
}

/** One part as sent; `data` names the oneof member that is set. */
export interface GeminiPart {
  data: 'text' | 'inlineData' | 'fileData' | 'functionCall' | 'functionResponse' | 'executableCode' | 'codeExecutionResult';
  text?: string;
  thought: boolean;
  thoughtSignature?: string;
  functionCall?: { name: string; args: unknown; id?: string };
  functionResponse?: { name: string; response: unknown; id?: string };
}

export interface GeminiContent {
  /** As sent; a missing role reads as 'user'. Validation rejects anything but user/model. */
  role: string;
  parts: GeminiPart[];
}

export interface GeminiRequest {
  neutral: NeutralRequest;
  contents: GeminiContent[];
  /** `thinkingConfig.includeThoughts`: thought summaries are returned as parts. */
  includeThoughts: boolean;
}

const DATA_FIELDS = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse', 'executableCode', 'codeExecutionResult'] as const;
const PART_FIELDS = [...DATA_FIELDS, 'thought', 'thoughtSignature', 'videoMetadata', 'partMetadata', 'mediaResolution'];
const CONTENT_FIELDS = ['role', 'parts'];

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * A proto field by its lowerCamelCase name or its original snake_case name, as proto3 JSON
 * parsers accept both. Only message fields are read this way, never keys inside Struct values.
 */
function member(source: Record<string, unknown>, camel: string): unknown {
  const value = source[camel];
  return value === undefined ? source[snakeCase(camel)] : value;
}

function present(source: Record<string, unknown>, camel: string): boolean {
  const value = member(source, camel);
  return value !== undefined && value !== null;
}

function unknownName(source: Record<string, unknown>, allowed: readonly string[], at: string): void {
  const names = new Set(allowed.flatMap((name) => [name, snakeCase(name)]));
  const unknown = Object.keys(source).find((key) => !names.has(key));
  if (unknown !== undefined) {
    throw new GeminiRequestError(`Invalid JSON payload received. Unknown name "${unknown}" at '${at}': Cannot find field.`);
  }
}

function invalidValue(path: string, type: string, value: unknown): GeminiRequestError {
  return new GeminiRequestError(`Invalid value at '${path}' (${type}), ${JSON.stringify(value)}`);
}

function readString(value: unknown, path: string): string {
  if (typeof value !== 'string') throw invalidValue(path, 'TYPE_STRING', value);
  return value;
}

function optionalString(value: unknown, path: string): string | undefined {
  return value === undefined || value === null ? undefined : readString(value, path);
}

function required(path: string, what: string): GeminiRequestError {
  return new GeminiRequestError(`* GenerateContentRequest.${path}: ${what}`);
}

function readPart(value: unknown, path: string): GeminiPart {
  if (!isRecord(value)) throw invalidValue(path, 'type.googleapis.com/google.ai.generativelanguage.v1beta.Part', value);
  unknownName(value, PART_FIELDS, path);
  const set = DATA_FIELDS.filter((field) => present(value, field));
  const data = set[0];
  if (data === undefined) throw required(`${path}.data`, "required oneof field 'data' must have one initialized field");
  if (set.length > 1) throw new GeminiRequestError(`Invalid JSON payload received. Oneof field 'data' is already set. Cannot set '${set[1]}' at '${path}'.`);
  const thought = member(value, 'thought');
  if (thought !== undefined && thought !== null && typeof thought !== 'boolean') throw invalidValue(`${path}.thought`, 'TYPE_BOOL', thought);
  const part: GeminiPart = { data, thought: thought === true };
  const signature = optionalString(member(value, 'thoughtSignature'), `${path}.thought_signature`);
  if (signature !== undefined) part.thoughtSignature = signature;
  const payload = member(value, data);
  if (data === 'text') part.text = readString(payload, `${path}.text`);
  if (data === 'functionCall' || data === 'functionResponse') {
    const field = snakeCase(data);
    if (!isRecord(payload)) throw invalidValue(`${path}.${field}`, `type.googleapis.com/google.ai.generativelanguage.v1beta.${data === 'functionCall' ? 'FunctionCall' : 'FunctionResponse'}`, payload);
    const name = member(payload, 'name');
    if (typeof name !== 'string' || name === '') throw required(`${path}.${field}.name`, 'Name cannot be empty.');
    const id = optionalString(member(payload, 'id'), `${path}.${field}.id`);
    const withId = id === undefined ? {} : { id };
    if (data === 'functionCall') part.functionCall = { name, args: member(payload, 'args'), ...withId };
    else part.functionResponse = { name, response: member(payload, 'response'), ...withId };
  }
  if (data === 'inlineData' || data === 'fileData') {
    if (!isRecord(payload)) throw invalidValue(`${path}.${snakeCase(data)}`, 'type.googleapis.com/google.ai.generativelanguage.v1beta.Blob', payload);
  }
  return part;
}

function readContent(value: unknown, path: string): GeminiContent {
  if (!isRecord(value)) throw invalidValue(path, 'type.googleapis.com/google.ai.generativelanguage.v1beta.Content', value);
  unknownName(value, CONTENT_FIELDS, path);
  const role = optionalString(member(value, 'role'), `${path}.role`) ?? 'user';
  const parts = member(value, 'parts');
  if (parts === undefined || parts === null || (Array.isArray(parts) && parts.length === 0)) {
    throw required(`${path}.parts`, 'contents.parts must not be empty.');
  }
  if (!Array.isArray(parts)) throw invalidValue(`${path}.parts`, 'type.googleapis.com/google.ai.generativelanguage.v1beta.Part', parts);
  return { role: role === '' ? 'user' : role, parts: parts.map((part, index) => readPart(part, `${path}.parts[${index}]`)) };
}

function readSystemInstruction(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const content = readContent(value, 'system_instruction');
  return content.parts.flatMap((part) => (part.text === undefined ? [] : [part.text])).join('\n');
}

function readTools(value: unknown): NeutralTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidValue('tools', 'type.googleapis.com/google.ai.generativelanguage.v1beta.Tool', value);
  const tools: NeutralTool[] = [];
  value.forEach((tool, index) => {
    if (!isRecord(tool)) throw invalidValue(`tools[${index}]`, 'type.googleapis.com/google.ai.generativelanguage.v1beta.Tool', tool);
    const declarations = member(tool, 'functionDeclarations');
    if (declarations === undefined || declarations === null) return;
    if (!Array.isArray(declarations)) throw invalidValue(`tools[${index}].function_declarations`, 'FunctionDeclaration', declarations);
    declarations.forEach((declaration, j) => {
      const path = `tools[${index}].function_declarations[${j}]`;
      if (!isRecord(declaration)) throw invalidValue(path, 'FunctionDeclaration', declaration);
      const name = member(declaration, 'name');
      if (typeof name !== 'string' || name === '') throw required(`${path}.name`, 'Name cannot be empty.');
      const schema = member(declaration, 'parametersJsonSchema') ?? member(declaration, 'parameters');
      tools.push(schema === undefined || schema === null ? { name } : { name, parameters: schema });
    });
  });
  return tools;
}

function readToolChoice(value: unknown, tools: readonly NeutralTool[]): NeutralToolChoice {
  const fallback: NeutralToolChoice = tools.length > 0 ? 'auto' : 'none';
  if (value === undefined || value === null) return fallback;
  if (!isRecord(value)) throw invalidValue('tool_config', 'ToolConfig', value);
  const config = member(value, 'functionCallingConfig');
  if (config === undefined || config === null) return fallback;
  if (!isRecord(config)) throw invalidValue('tool_config.function_calling_config', 'FunctionCallingConfig', config);
  const mode = member(config, 'mode') ?? 'AUTO';
  const allowed = member(config, 'allowedFunctionNames');
  const names = Array.isArray(allowed) ? allowed.filter((name): name is string => typeof name === 'string') : [];
  switch (mode) {
    case 'ANY':
      return names[0] === undefined ? 'required' : { name: names[0] };
    case 'NONE':
      return 'none';
    case 'AUTO':
    case 'VALIDATED':
    case 'MODE_UNSPECIFIED':
      return fallback;
    default:
      throw new GeminiRequestError(`Invalid value at 'tool_config.function_calling_config.mode' (type.googleapis.com/google.ai.generativelanguage.v1beta.FunctionCallingConfig.Mode), ${JSON.stringify(mode)}`);
  }
}

interface GenerationConfig {
  maxTokens?: number;
  stopSequences?: string[];
  thinkingEnabled: boolean;
  includeThoughts: boolean;
}

function readInteger(value: unknown, path: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalidValue(path, 'TYPE_INT32', value);
  return value;
}

function readGenerationConfig(value: unknown): GenerationConfig {
  const config: GenerationConfig = { thinkingEnabled: false, includeThoughts: false };
  if (value === undefined || value === null) return config;
  if (!isRecord(value)) throw invalidValue('generation_config', 'GenerationConfig', value);
  const maxTokens = readInteger(member(value, 'maxOutputTokens'), 'generation_config.max_output_tokens');
  if (maxTokens !== undefined) {
    if (maxTokens < 1) throw new GeminiRequestError('max_output_tokens must be positive.');
    config.maxTokens = maxTokens;
  }
  const stops = member(value, 'stopSequences');
  if (stops !== undefined && stops !== null) {
    if (!Array.isArray(stops)) throw invalidValue('generation_config.stop_sequences', 'TYPE_STRING', stops);
    config.stopSequences = stops.map((stop, index) => readString(stop, `generation_config.stop_sequences[${index}]`));
  }
  const thinking = member(value, 'thinkingConfig');
  if (thinking !== undefined && thinking !== null) {
    if (!isRecord(thinking)) throw invalidValue('generation_config.thinking_config', 'ThinkingConfig', thinking);
    const include = member(thinking, 'includeThoughts');
    if (include !== undefined && include !== null && typeof include !== 'boolean') {
      throw invalidValue('generation_config.thinking_config.include_thoughts', 'TYPE_BOOL', include);
    }
    const budget = readInteger(member(thinking, 'thinkingBudget'), 'generation_config.thinking_config.thinking_budget');
    config.includeThoughts = include === true;
    // -1 asks for dynamic thinking, which is thinking too.
    config.thinkingEnabled = config.includeThoughts || (budget !== undefined && (budget > 0 || budget === -1));
  }
  return config;
}

/** What a functionResponse says: `response.output` when present, else the whole response; strings unquoted. */
function responseText(response: unknown): string {
  const value = isRecord(response) && 'output' in response ? response['output'] : response;
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

function visibleText(parts: readonly GeminiPart[]): string {
  return parts.flatMap((part) => (part.text === undefined || part.thought ? [] : [part.text])).join('\n');
}

/** user → user (or tool when it carries functionResponse parts), model → assistant. */
function toNeutralMessages(system: string | undefined, contents: readonly GeminiContent[]): NeutralMessage[] {
  const messages: NeutralMessage[] = system === undefined ? [] : [{ role: 'system', text: system }];
  for (const content of contents) {
    const text = visibleText(content.parts);
    if (content.role === 'model') {
      const calls = content.parts.flatMap((part) => (part.functionCall ? [part.functionCall] : []));
      messages.push(calls.length > 0 ? { role: 'assistant', text, toolCallIds: calls.map((call) => call.id ?? call.name) } : { role: 'assistant', text });
      continue;
    }
    const results: NeutralToolResult[] = content.parts.flatMap((part) => {
      const response = part.functionResponse;
      return response ? [{ toolCallId: response.id ?? response.name, name: response.name, text: responseText(response.response) }] : [];
    });
    messages.push(results.length > 0 ? { role: 'tool', text, toolResults: results } : { role: 'user', text });
  }
  return messages;
}

/**
 * Wire request → parsed contents and neutral view. `model` and `stream` come from the URL path.
 * `generateContentRequest` (countTokens' wrapper) is unwrapped by the caller.
 */
export function convertGeminiRequest(body: unknown, model: string, stream: boolean): GeminiRequest {
  if (!isRecord(body)) throw new GeminiRequestError('Invalid JSON payload received. The request body must be a JSON object.');
  const rawContents = member(body, 'contents');
  if (rawContents === undefined || rawContents === null || (Array.isArray(rawContents) && rawContents.length === 0)) {
    throw required('contents', 'contents is not specified');
  }
  if (!Array.isArray(rawContents)) throw invalidValue('contents', 'type.googleapis.com/google.ai.generativelanguage.v1beta.Content', rawContents);
  const contents = rawContents.map((content, index) => readContent(content, `contents[${index}]`));
  const tools = readTools(member(body, 'tools'));
  const generation = readGenerationConfig(member(body, 'generationConfig'));
  const neutral: NeutralRequest = {
    model,
    messages: toNeutralMessages(readSystemInstruction(member(body, 'systemInstruction')), contents),
    tools,
    toolChoice: readToolChoice(member(body, 'toolConfig'), tools),
    stream,
  };
  if (generation.maxTokens !== undefined) neutral.maxTokens = generation.maxTokens;
  if (generation.stopSequences !== undefined) neutral.stopSequences = generation.stopSequences;
  if (generation.thinkingEnabled) neutral.thinkingEnabled = true;
  return { neutral, contents, includeThoughts: generation.includeThoughts };
}
