/**
 * Dialect-A `messages` → canonical messages, each field checked as it is read. System and developer
 * messages keep their position; consecutive tool messages become one canonical tool message (the
 * shape Anthropic and Gemini need), and each result gets back the tool name OpenAI leaves out, from
 * the call it answers.
 */
import type {
  AssistantContentPart,
  AssistantMessage,
  Message,
  SystemMessage,
  ToolCallPart,
  ToolResultPart,
  UserMessage,
} from '@rosetta/canonical';
import {
  compact,
  fieldPath,
  invalidField,
  isAbsent,
  optionalString,
  requireEnum,
  requireList,
  requireRecord,
  requireString,
  unsupported,
  type JsonObject,
} from '@rosetta/protocols/common';
import {
  convertOpenAIChatTextContent,
  convertOpenAIChatUserContent,
  convertTextPart,
  partsOf,
  recordItem,
  unsupportedPart,
} from './convert-openai-chat-content';
import { callSignaturesFromReasoningDetails, fromReasoningDetails } from './reasoning-details';

/** `function` is OpenAI's deprecated predecessor of `tool`: known, but not translated. */
const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'] as const;

export function convertOpenAIChatMessages({ messages }: { messages: unknown }): Message[] {
  const list = requireList(messages, 'messages', 1);
  const converted: Message[] = [];
  const toolNames = new Map<string, string>();
  for (let i = 0; i < list.length; i++) {
    const path = `messages[${i}]`;
    const message = recordItem(list[i], path);
    const role = requireEnum(message, 'role', ROLES, path);
    optionalString(message, 'name', path);
    if (role !== 'assistant' && !isAbsent(message['tool_calls'])) convertToolCalls(message, path);
    if (role === 'tool') appendToolResult(converted, convertToolMessage(message, path, toolNames));
    else converted.push(convertMessage(role, message, path, toolNames));
  }
  return converted;
}

function convertMessage(role: (typeof ROLES)[number], message: JsonObject, path: string, toolNames: Map<string, string>): Message {
  switch (role) {
    case 'system':
    case 'developer':
      return convertSystemMessage(message, path, role === 'developer');
    case 'user':
      return convertUserMessage(message, path);
    case 'assistant':
      return convertAssistantMessage(message, path, toolNames);
    default:
      throw unsupported(`message role '${role}' (send 'tool' messages)`, fieldPath(path, 'role'));
  }
}

function convertSystemMessage(message: JsonObject, path: string, developer: boolean): SystemMessage {
  return compact({
    role: 'system',
    content: convertOpenAIChatTextContent({ content: message['content'], path: fieldPath(path, 'content') }),
    developer: developer || undefined,
    name: optionalString(message, 'name', path),
  });
}

function convertUserMessage(message: JsonObject, path: string): UserMessage {
  return compact({
    role: 'user',
    content: convertOpenAIChatUserContent({ content: message['content'], path: fieldPath(path, 'content') }),
    name: optionalString(message, 'name', path),
  });
}

/**
 * Thinking first (it preceded the answer), then text and refusal, then the calls, each with the
 * signature reasoning_details carries for it.
 */
function convertAssistantMessage(message: JsonObject, path: string, toolNames: Map<string, string>): AssistantMessage {
  const content: AssistantContentPart[] = [];
  // Signed reasoning (reasoning_details) supersedes the plain text copy in reasoning_content.
  const details = fromReasoningDetails(message['reasoning_details']);
  const reasoning = optionalString(message, 'reasoning_content', path) ?? optionalString(message, 'reasoning', path);
  if (details?.length) content.push(...details);
  else if (reasoning) content.push({ type: 'thinking', text: reasoning });
  content.push(...convertAssistantContent(message['content'], fieldPath(path, 'content')));
  const refusal = optionalString(message, 'refusal', path);
  if (refusal) content.push({ type: 'refusal', text: refusal });
  const calls = convertToolCalls(message, path);
  if (calls.length > 0) {
    const signatures = callSignaturesFromReasoningDetails(message['reasoning_details']);
    for (const call of calls) {
      const signature = signatures.get(call.id);
      if (signature) call.signature = signature;
      toolNames.set(call.id, call.name);
      content.push(call);
    }
  }
  return compact({ role: 'assistant', content, name: optionalString(message, 'name', path) });
}

/** Empty assistant text (often sent beside tool calls) carries nothing, so it is left out. */
function convertAssistantContent(content: unknown, path: string): AssistantContentPart[] {
  if (isAbsent(content)) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return partsOf(content, path).map((raw, i): AssistantContentPart => {
    const partPath = `${path}[${i}]`;
    const part = recordItem(raw, partPath);
    const type = requireString(part, 'type', partPath);
    if (type === 'text') return convertTextPart(part, partPath);
    if (type === 'refusal') return { type: 'refusal', text: requireString(part, 'refusal', partPath) };
    throw unsupportedPart(type, partPath);
  });
}

/** `tool_calls`, checked on any message (only an assistant's are kept). */
function convertToolCalls(message: JsonObject, path: string): ToolCallPart[] {
  const raw = message['tool_calls'];
  if (isAbsent(raw)) return [];
  const callsPath = fieldPath(path, 'tool_calls');
  if (!Array.isArray(raw)) throw invalidField(callsPath, 'must be an array');
  return raw.map((call, j) => convertToolCall(call, `${callsPath}[${j}]`));
}

function convertToolCall(raw: unknown, path: string): ToolCallPart {
  const call = recordItem(raw, path);
  const id = requireString(call, 'id', path);
  requireEnum(call, 'type', ['function'], path);
  const functionPath = fieldPath(path, 'function');
  const fn = requireRecord(call['function'], functionPath);
  return {
    type: 'tool_call',
    id,
    name: requireString(fn, 'name', functionPath),
    // Kept verbatim: re-serialising would change the text the model produced.
    arguments: requireString(fn, 'arguments', functionPath),
  };
}

function convertToolMessage(message: JsonObject, path: string, toolNames: Map<string, string>): ToolResultPart {
  const id = message['tool_call_id'];
  if (isAbsent(id)) throw invalidField(fieldPath(path, 'tool_call_id'), 'is required on tool messages');
  const toolCallId = requireString(message, 'tool_call_id', path);
  return compact({
    type: 'tool_result',
    toolCallId,
    toolName: toolNames.get(toolCallId),
    content: convertOpenAIChatTextContent({ content: message['content'], path: fieldPath(path, 'content') }),
  });
}

function appendToolResult(messages: Message[], result: ToolResultPart): void {
  const last = messages[messages.length - 1];
  if (last?.role === 'tool') {
    last.content.push(result);
    return;
  }
  messages.push({ role: 'tool', content: [result] });
}
