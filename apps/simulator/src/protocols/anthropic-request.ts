import { isRecord } from '../http-io';
import type { NeutralMessage, NeutralRequest, NeutralTool, NeutralToolChoice, NeutralToolResult } from '../reply-plan';

/** A request Anthropic would refuse with 400 invalid_request_error; messages name the field path. */
export class AnthropicRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AnthropicRequestError';
  }
}

/** One content block as sent, narrowed to what the simulator reads. */
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'image' }
  | { type: 'document' }
  | { type: 'search_result' }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; toolUseId: string; text: string; isError: boolean }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

/** A wire message with its blocks (string content becomes one text block). `system` is kept for validation. */
export interface AnthropicMessage {
  index: number;
  role: 'user' | 'assistant' | 'system';
  blocks: AnthropicBlock[];
}

export interface AnthropicRequest {
  neutral: NeutralRequest;
  messages: AnthropicMessage[];
  /** `thinking.type === 'enabled'`. */
  thinkingEnabled: boolean;
  temperature?: number;
}

function fieldRequired(path: string): AnthropicRequestError {
  return new AnthropicRequestError(`${path}: Field required`);
}

function invalid(path: string, expected: string): AnthropicRequestError {
  return new AnthropicRequestError(`${path}: Input should be ${expected}`);
}

function readString(value: unknown, path: string): string {
  if (value === undefined || value === null) throw fieldRequired(path);
  if (typeof value !== 'string') throw invalid(path, 'a valid string');
  return value;
}

function optionalBoolean(value: unknown, path: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalid(path, 'a valid boolean');
  return value;
}

function readInteger(value: unknown, path: string): number {
  if (value === undefined || value === null) throw fieldRequired(path);
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid(path, 'a valid integer');
  return value;
}

const BLOCK_TYPES = ['text', 'image', 'document', 'search_result', 'thinking', 'redacted_thinking', 'tool_use', 'tool_result'];
const TOOL_RESULT_CONTENT_TYPES = ['text', 'image', 'document', 'search_result'];

function tagMismatch(path: string, type: unknown, expected: readonly string[]): AnthropicRequestError {
  const tags = expected.map((tag) => `'${tag}'`).join(', ');
  return new AnthropicRequestError(`${path}: Input tag '${String(type)}' found using 'type' does not match any of the expected tags: ${tags}`);
}

function requireObject(value: unknown, path: string): Record<string, unknown> {
  if (value === undefined || value === null) throw fieldRequired(path);
  if (!isRecord(value)) throw invalid(path, 'a valid dictionary');
  return value;
}

/** Text of a tool_result: its string content, or its text blocks joined by newlines. */
function toolResultText(content: unknown, path: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(path, 'a valid string or list of content blocks');
  const texts: string[] = [];
  content.forEach((block, index) => {
    const blockPath = `${path}.${index}`;
    if (!isRecord(block)) throw invalid(blockPath, 'a valid dictionary');
    if (!TOOL_RESULT_CONTENT_TYPES.includes(String(block['type']))) throw tagMismatch(blockPath, block['type'], TOOL_RESULT_CONTENT_TYPES);
    if (block['type'] === 'text') texts.push(readString(block['text'], `${blockPath}.text`));
  });
  return texts.join('\n');
}

function readBlock(value: unknown, path: string): AnthropicBlock {
  if (!isRecord(value)) throw invalid(path, 'a valid dictionary');
  const type = value['type'];
  switch (type) {
    case 'text':
      return { type, text: readString(value['text'], `${path}.text`) };
    case 'image':
    case 'document':
      requireObject(value['source'], `${path}.${type}.source`);
      return { type };
    case 'search_result':
      readString(value['source'], `${path}.search_result.source`);
      return { type };
    case 'tool_use':
      if (!('input' in value)) throw fieldRequired(`${path}.tool_use.input`);
      return {
        type,
        id: readString(value['id'], `${path}.tool_use.id`),
        name: readString(value['name'], `${path}.tool_use.name`),
        input: value['input'],
      };
    case 'tool_result':
      return {
        type,
        toolUseId: readString(value['tool_use_id'], `${path}.tool_result.tool_use_id`),
        text: toolResultText(value['content'], `${path}.tool_result.content`),
        isError: optionalBoolean(value['is_error'], `${path}.tool_result.is_error`) ?? false,
      };
    case 'thinking':
      return {
        type,
        thinking: readString(value['thinking'], `${path}.thinking.thinking`),
        signature: readString(value['signature'], `${path}.thinking.signature`),
      };
    case 'redacted_thinking':
      return { type, data: readString(value['data'], `${path}.redacted_thinking.data`) };
    default:
      throw tagMismatch(path, type, BLOCK_TYPES);
  }
}

function readMessage(value: unknown, index: number): AnthropicMessage {
  const path = `messages.${index}`;
  if (!isRecord(value)) throw invalid(path, 'a valid dictionary');
  const role = value['role'];
  if (role !== 'user' && role !== 'assistant' && role !== 'system') {
    if (role === undefined) throw fieldRequired(`${path}.role`);
    throw invalid(`${path}.role`, "'user' or 'assistant'");
  }
  const content = value['content'];
  if (content === undefined || content === null) throw fieldRequired(`${path}.content`);
  if (typeof content === 'string') return { index, role, blocks: [{ type: 'text', text: content }] };
  if (!Array.isArray(content)) throw invalid(`${path}.content`, 'a valid string or list of content blocks');
  return { index, role, blocks: content.map((block, blockIndex) => readBlock(block, `${path}.content.${blockIndex}`)) };
}

function readSystem(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw invalid('system', 'a valid string or list of text blocks');
  return value
    .map((block, index) => {
      if (!isRecord(block) || block['type'] !== 'text') throw tagMismatch(`system.${index}`, isRecord(block) ? block['type'] : undefined, ['text']);
      return readString(block['text'], `system.${index}.text`);
    })
    .join('\n');
}

/** Custom tools (no `type`, or `type: 'custom'`) only; versioned server tools have nothing to simulate. */
function readTools(value: unknown): NeutralTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid('tools', 'a valid list');
  const tools: NeutralTool[] = [];
  value.forEach((tool, index) => {
    const path = `tools.${index}`;
    if (!isRecord(tool)) throw invalid(path, 'a valid dictionary');
    if (tool['type'] !== undefined && tool['type'] !== null && tool['type'] !== 'custom') return;
    const name = readString(tool['name'], `${path}.custom.name`);
    tools.push({ name, parameters: requireObject(tool['input_schema'], `${path}.custom.input_schema`) });
  });
  return tools;
}

const TOOL_CHOICES = ['auto', 'any', 'tool', 'none'];

function readToolChoice(value: unknown, hasTools: boolean): { choice: NeutralToolChoice; parallel?: boolean } {
  if (value === undefined || value === null) return { choice: hasTools ? 'auto' : 'none' };
  if (!isRecord(value)) throw invalid('tool_choice', 'a valid dictionary');
  const type = value['type'];
  const disable = optionalBoolean(value['disable_parallel_tool_use'], `tool_choice.${String(type)}.disable_parallel_tool_use`);
  const parallel = disable === undefined ? {} : { parallel: !disable };
  switch (type) {
    case 'auto':
      return { choice: 'auto', ...parallel };
    case 'any':
      return { choice: 'required', ...parallel };
    case 'none':
      return { choice: 'none' };
    case 'tool':
      return { choice: { name: readString(value['name'], 'tool_choice.tool.name') }, ...parallel };
    default:
      throw tagMismatch('tool_choice', type, TOOL_CHOICES);
  }
}

function readStopSequences(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalid('stop_sequences', 'a valid list');
  return value.map((entry, index) => readString(entry, `stop_sequences.${index}`));
}

function readThinking(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (!isRecord(value)) throw invalid('thinking', 'a valid dictionary');
  switch (value['type']) {
    case 'enabled':
      readInteger(value['budget_tokens'], 'thinking.enabled.budget_tokens');
      return true;
    case 'disabled':
    case 'adaptive':
      return false;
    default:
      throw tagMismatch('thinking', value['type'], ['enabled', 'disabled', 'adaptive']);
  }
}

function readTemperature(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid('temperature', 'a valid number');
  return value;
}

function textOf(blocks: readonly AnthropicBlock[]): string {
  return blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

/**
 * One neutral message per wire message (the real API merges consecutive same-role turns, but
 * scripts match on the last user message exactly as for OpenAI). A user message with tool_result
 * blocks becomes a `tool` message whose results are named after the tool_use they answer.
 */
function toNeutralMessages(system: string | undefined, messages: readonly AnthropicMessage[]): NeutralMessage[] {
  const neutral: NeutralMessage[] = system === undefined ? [] : [{ role: 'system', text: system }];
  const toolNames = new Map<string, string>();
  for (const message of messages) {
    const text = textOf(message.blocks);
    if (message.role === 'system') {
      neutral.push({ role: 'system', text });
    } else if (message.role === 'assistant') {
      const calls = message.blocks.flatMap((block) => (block.type === 'tool_use' ? [block] : []));
      for (const call of calls) toolNames.set(call.id, call.name);
      neutral.push(calls.length > 0 ? { role: 'assistant', text, toolCallIds: calls.map((call) => call.id) } : { role: 'assistant', text });
    } else {
      const results: NeutralToolResult[] = message.blocks.flatMap((block) => {
        if (block.type !== 'tool_result') return [];
        const name = toolNames.get(block.toolUseId);
        return [name === undefined ? { toolCallId: block.toolUseId, text: block.text } : { toolCallId: block.toolUseId, name, text: block.text }];
      });
      neutral.push(results.length > 0 ? { role: 'tool', text, toolResults: results } : { role: 'user', text });
    }
  }
  return neutral;
}

export interface AnthropicParseOptions {
  /** `max_tokens` is required by /v1/messages but not by /v1/messages/count_tokens. */
  requireMaxTokens: boolean;
}

/** Wire request → parsed request and neutral view. Throws AnthropicRequestError for malformed input. */
export function convertAnthropicRequest(body: unknown, options: AnthropicParseOptions): AnthropicRequest {
  if (!isRecord(body)) throw new AnthropicRequestError('The request body must be a JSON object.');
  const model = readString(body['model'], 'model');
  let maxTokens: number | undefined;
  if (options.requireMaxTokens || (body['max_tokens'] !== undefined && body['max_tokens'] !== null)) {
    maxTokens = readInteger(body['max_tokens'], 'max_tokens');
    if (maxTokens < 1) throw invalid('max_tokens', 'greater than or equal to 1');
  }
  const rawMessages = body['messages'];
  if (rawMessages === undefined || rawMessages === null) throw fieldRequired('messages');
  if (!Array.isArray(rawMessages)) throw invalid('messages', 'a valid list');
  if (rawMessages.length === 0) throw new AnthropicRequestError('messages: at least one message is required');
  const messages = rawMessages.map(readMessage);
  const tools = readTools(body['tools']);
  const toolChoice = readToolChoice(body['tool_choice'], tools.length > 0);
  const thinkingEnabled = readThinking(body['thinking']);
  const neutral: NeutralRequest = {
    model,
    messages: toNeutralMessages(readSystem(body['system']), messages),
    tools,
    toolChoice: toolChoice.choice,
    stream: optionalBoolean(body['stream'], 'stream') ?? false,
  };
  if (maxTokens !== undefined) neutral.maxTokens = maxTokens;
  const stops = readStopSequences(body['stop_sequences']);
  if (stops !== undefined) neutral.stopSequences = stops;
  if (toolChoice.parallel !== undefined) neutral.parallelToolCalls = toolChoice.parallel;
  if (thinkingEnabled) neutral.thinkingEnabled = true;
  const request: AnthropicRequest = { neutral, messages, thinkingEnabled };
  const temperature = readTemperature(body['temperature']);
  if (temperature !== undefined) request.temperature = temperature;
  return request;
}
