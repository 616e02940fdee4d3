import {
  at, checkArray, checkBoolean, checkInteger, checkNested, checkNumber, checkObject, checkOneOf, checkRoutingFields, checkString, invalid, isStringOrStringArray, required, requireObjectBody, isRecord, type JsonObject,
} from '@rosetta/protocols/common';

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];
const PART_TYPES = ['text', 'image_url', 'input_audio', 'file', 'refusal'];
const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function checkContent(message: JsonObject, path: string): void {
  const content = message['content'];
  if (typeof content === 'string') return;
  if (content === null || content === undefined ? message['role'] === 'assistant' : Array.isArray(content) && content.every((p) => isRecord(p) && typeof p['type'] === 'string' && PART_TYPES.includes(p['type']))) return;
  invalid(at(path, 'content'), `must be a string or an array of content parts (${PART_TYPES.join(', ')}); null only for assistant messages`);
}

function checkToolCall(call: JsonObject, path: string): void {
  checkString(required(call, 'id', path), at(path, 'id'));
  checkOneOf(required(call, 'type', path), at(path, 'type'), ['function']);
  checkNested(required(call, 'function', path), at(path, 'function'), (fn, p) => {
    checkString(required(fn, 'name', p), at(p, 'name'));
    checkString(required(fn, 'arguments', p), at(p, 'arguments'));
  });
}

function checkMessage(message: JsonObject, path: string): void {
  checkOneOf(required(message, 'role', path), at(path, 'role'), ROLES);
  checkContent(message, path);
  checkString(message['name'], at(path, 'name'));
  if (message['role'] === 'tool' && typeof message['tool_call_id'] !== 'string') invalid(at(path, 'tool_call_id'), 'is required on tool messages');
  checkArray(message['tool_calls'], at(path, 'tool_calls'), (call, p) => checkNested(call, p, checkToolCall));
}

function checkTool(tool: JsonObject, path: string): void {
  checkOneOf(required(tool, 'type', path), at(path, 'type'), ['function', 'custom']);
  if (tool['type'] !== 'function') return;
  checkNested(required(tool, 'function', path), at(path, 'function'), (fn, p) => {
    const name = required(fn, 'name', p);
    if (typeof name !== 'string' || !FUNCTION_NAME.test(name)) invalid(at(p, 'name'), 'must be 1-64 characters of a-z, A-Z, 0-9, _ and -');
    checkString(fn['description'], at(p, 'description'));
    checkObject(fn['parameters'], at(p, 'parameters'));
    checkBoolean(fn['strict'], at(p, 'strict'));
  });
}

const isToolChoice = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && ['none', 'auto', 'required'].includes(v)) || (isRecord(v) && typeof v['type'] === 'string');

const isResponseFormat = (v: unknown): boolean =>
  v === undefined || v === null ||
  (isRecord(v) && ['text', 'json_object', 'json_schema'].includes(v['type'] as string) && (v['type'] !== 'json_schema' || isRecord(v['json_schema'])));

/** Dialect A request: the documented fields are checked; everything else passes through untouched. */
export function validateOpenAIChatRequest(raw: unknown): JsonObject {
  const body = requireObjectBody(raw);
  checkRoutingFields(body);
  checkString(required(body, 'model'), 'model');
  checkArray(required(body, 'messages'), 'messages', (m, p) => checkNested(m, p, checkMessage), 1);
  checkBoolean(body['stream'], 'stream');
  checkObject(body['stream_options'], 'stream_options');
  checkNumber(body['temperature'], 'temperature', 0, 2);
  checkNumber(body['top_p'], 'top_p', 0, 1);
  checkInteger(body['max_tokens'], 'max_tokens', 1);
  checkInteger(body['max_completion_tokens'], 'max_completion_tokens', 1);
  checkInteger(body['n'], 'n', 1, 128);
  checkInteger(body['seed'], 'seed');
  checkNumber(body['frequency_penalty'], 'frequency_penalty', -2, 2);
  checkNumber(body['presence_penalty'], 'presence_penalty', -2, 2);
  const stop = body['stop'];
  if (stop !== undefined && stop !== null && !isStringOrStringArray(stop, 4)) invalid('stop', 'must be a string or an array of at most 4 strings');
  checkArray(body['tools'], 'tools', (t, p) => checkNested(t, p, checkTool));
  if (!isToolChoice(body['tool_choice'])) invalid('tool_choice', "must be 'none', 'auto', 'required' or an object naming a tool");
  checkBoolean(body['parallel_tool_calls'], 'parallel_tool_calls');
  if (!isResponseFormat(body['response_format'])) {
    invalid('response_format', "must be {type: 'text' | 'json_object' | 'json_schema'} (json_schema needs a json_schema object)");
  }
  checkString(body['user'], 'user');
  return body;
}
