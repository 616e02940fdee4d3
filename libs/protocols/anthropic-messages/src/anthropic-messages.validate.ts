import {
  at, checkArray, checkBoolean, checkInteger, checkNested, checkNumber, checkObject, checkOneOf, checkRoutingFields, checkString, checkStringArray, invalid, required, requireObjectBody, isRecord, type JsonObject,
} from '@rosetta/protocols/common';

const isBlocks = (v: unknown): boolean => Array.isArray(v) && v.every((b) => isRecord(b) && typeof b['type'] === 'string');
const isContent = (v: unknown): boolean => typeof v === 'string' || isBlocks(v);

function checkMessage(message: JsonObject, path: string): void {
  // `system` inside the conversation: Anthropic's mid-conversation-system beta, which Claude Code uses.
  checkOneOf(required(message, 'role', path), at(path, 'role'), ['user', 'assistant', 'system'], "must be 'user', 'assistant' or 'system'");
  if (!isContent(message['content'])) invalid(at(path, 'content'), 'must be a string or an array of content blocks, each with a type');
}

function checkTool(tool: JsonObject, path: string): void {
  checkString(required(tool, 'name', path), at(path, 'name'));
  checkString(tool['type'], at(path, 'type'));
  if ((tool['type'] === undefined || tool['type'] === 'custom') && !isRecord(tool['input_schema'])) invalid(at(path, 'input_schema'), 'must be an object');
}

/** The body shared by /v1/messages and /v1/messages/count_tokens. */
export function validateAnthropicCountTokensRequest(raw: unknown): JsonObject {
  const body = requireObjectBody(raw);
  checkRoutingFields(body);
  checkString(required(body, 'model'), 'model');
  checkArray(required(body, 'messages'), 'messages', (m, p) => checkNested(m, p, checkMessage), 1);
  if (body['system'] !== undefined && !isContent(body['system'])) invalid('system', 'must be a string or an array of text blocks');
  checkArray(body['tools'], 'tools', (t, p) => checkNested(t, p, checkTool));
  checkNested(body['tool_choice'], 'tool_choice', (choice, p) => {
    checkOneOf(required(choice, 'type', p), at(p, 'type'), ['auto', 'any', 'tool', 'none']);
    if (choice['type'] === 'tool') checkString(required(choice, 'name', p), at(p, 'name'));
    checkBoolean(choice['disable_parallel_tool_use'], at(p, 'disable_parallel_tool_use'));
  });
  checkNested(body['thinking'], 'thinking', (thinking, p) => {
    checkOneOf(required(thinking, 'type', p), at(p, 'type'), ['enabled', 'disabled', 'adaptive']);
    if (thinking['type'] === 'enabled') checkInteger(required(thinking, 'budget_tokens', p), at(p, 'budget_tokens'), 1024);
  });
  return body;
}

/** Dialect B request: documented fields checked; unknown fields pass through untouched. */
export function validateAnthropicMessagesRequest(raw: unknown): JsonObject {
  const body = validateAnthropicCountTokensRequest(raw);
  checkInteger(required(body, 'max_tokens'), 'max_tokens', 1);
  checkBoolean(body['stream'], 'stream');
  checkNumber(body['temperature'], 'temperature', 0, 1);
  checkNumber(body['top_p'], 'top_p', 0, 1);
  checkInteger(body['top_k'], 'top_k', 0);
  checkStringArray(body['stop_sequences'], 'stop_sequences');
  checkObject(body['metadata'], 'metadata');
  checkString(body['service_tier'], 'service_tier');
  return body;
}
