/**
 * Dialect-A `messages` → canonical messages. System and developer messages keep their position;
 * consecutive tool messages become one canonical tool message (the shape Anthropic and Gemini
 * need), and each result gets back the tool name OpenAI leaves out, from the call it answers.
 */
import {
  GatewayError,
  type AssistantContentPart,
  type AssistantMessage,
  type Message,
  type SystemMessage,
  type ToolCallPart,
  type ToolResultPart,
  type UserMessage,
} from '@rosetta/canonical';
import {
  convertOpenAIChatTextContent,
  convertOpenAIChatUserContent,
  convertTextPart,
  requireArray,
  unsupportedPart,
} from './convert-openai-chat-content';
import { compact, fieldPath, optionalString, requireRecord, requireString, unsupported, isString, type JsonObject } from '@rosetta/protocols/common';
import { callSignaturesFromReasoningDetails, fromReasoningDetails } from './reasoning-details';

export function convertOpenAIChatMessages({ messages }: { messages: unknown }): Message[] {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw GatewayError.invalidRequest("'messages' must be a non-empty array.", 'messages');
  }
  const converted: Message[] = [];
  const toolNames = new Map<string, string>();
  messages.forEach((raw, i) => {
    const path = `messages[${i}]`;
    const message = requireRecord(raw, path);
    const role = requireString(message, 'role', path);
    if (role === 'tool') {
      appendToolResult(converted, convertToolMessage(message, path, toolNames));
      return;
    }
    converted.push(convertMessage(role, message, path, toolNames));
  });
  return converted;
}

function convertMessage(role: string, message: JsonObject, path: string, toolNames: Map<string, string>): Message {
  switch (role) {
    case 'system':
    case 'developer':
      return convertSystemMessage(message, path, role === 'developer');
    case 'user':
      return convertUserMessage(message, path);
    case 'assistant':
      return convertAssistantMessage(message, path, toolNames);
    default:
      throw unsupported(`message role '${role}'`, fieldPath(path, 'role'));
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
  const toolCalls = message['tool_calls'];
  if (toolCalls !== undefined && toolCalls !== null) {
    const callsPath = fieldPath(path, 'tool_calls');
    const signatures = callSignaturesFromReasoningDetails(message['reasoning_details']);
    for (const [j, raw] of requireArray(toolCalls, callsPath).entries()) {
      const call = convertToolCall(raw, `${callsPath}[${j}]`);
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
  if (content === undefined || content === null) return [];
  if (isString(content)) return content === '' ? [] : [{ type: 'text', text: content }];
  return requireArray(content, path).map((raw, i): AssistantContentPart => {
    const partPath = `${path}[${i}]`;
    const part = requireRecord(raw, partPath);
    const type = requireString(part, 'type', partPath);
    if (type === 'text') return convertTextPart(part, partPath);
    if (type === 'refusal') return { type: 'refusal', text: requireString(part, 'refusal', partPath) };
    throw unsupportedPart(type, partPath);
  });
}

function convertToolCall(raw: unknown, path: string): ToolCallPart {
  const call = requireRecord(raw, path);
  const type = optionalString(call, 'type', path) ?? 'function';
  if (type !== 'function') {
    throw unsupported(`tool call type '${type}'`, fieldPath(path, 'type'));
  }
  const functionPath = fieldPath(path, 'function');
  const fn = requireRecord(call['function'], functionPath);
  return {
    type: 'tool_call',
    id: requireString(call, 'id', path),
    name: requireString(fn, 'name', functionPath),
    // Kept verbatim: re-serialising would change the text the model produced.
    arguments: requireString(fn, 'arguments', functionPath),
  };
}

function convertToolMessage(message: JsonObject, path: string, toolNames: Map<string, string>): ToolResultPart {
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
