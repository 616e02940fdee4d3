/**
 * Dialect-B `messages` → canonical messages, each field checked as it is read. A user turn's `tool_result` blocks become a canonical
 * tool message placed before a user message with the turn's other blocks (the order every dialect
 * needs: results answer the previous assistant turn). Each result gets back the name of the tool it
 * answers, from the `tool_use` that called it. A tool call's foreign signature, carried in an empty
 * thinking block before it, goes back onto the call.
 */
import type {
  AssistantContentPart,
  Converted,
  Message,
  ProviderSignature,
  ToolResultContent,
  ToolResultPart,
  TranslationWarning,
  UserContentPart,
} from '@rosetta/canonical';
import {
  compact,
  fieldPath,
  invalidField,
  isAbsent,
  isRecord,
  isString,
  optionalBoolean,
  optionalString,
  requireEnum,
  requireList,
  requireString,
  unwrapSignature,
  type JsonObject,
} from '@rosetta/protocols/common';
import {
  cacheHint,
  CONTENT_SHAPE,
  convertAnthropicMessagesTextContent,
  convertDocumentBlock,
  convertImageBlock,
  convertTextBlock,
  nestedBlock,
  requireArray,
  typedBlock,
  unsupportedBlock,
} from './convert-anthropic-messages-content';
import { callSignatureCarriedBy } from './anthropic-messages-call-signature';

interface Context {
  toolNames: Map<string, string>;
  warnings: TranslationWarning[];
}

/** `system` inside the conversation: Anthropic's mid-conversation-system beta, which Claude Code uses. */
const ROLES = ['user', 'assistant', 'system'] as const;

export function convertAnthropicMessagesMessages({ messages }: { messages: unknown }): Converted<Message[]> {
  const context: Context = { toolNames: new Map(), warnings: [] };
  const converted = requireList(messages, 'messages', 1).flatMap((raw, i): Message[] => {
    const path = `messages[${i}]`;
    if (!isRecord(raw)) throw invalidField(path, 'must be an object');
    const role = requireEnum(raw, 'role', ROLES, path, "must be 'user', 'assistant' or 'system'");
    const contentPath = fieldPath(path, 'content');
    switch (role) {
      case 'user':
        return convertUserTurn(raw['content'], contentPath, context);
      case 'assistant':
        return [{ role: 'assistant', content: convertAssistantContent(raw['content'], contentPath, context) }];
      case 'system':
        // Not documented for requests, but in the SDK's role union: kept where it was.
        return [{ role: 'system', content: convertAnthropicMessagesTextContent({ content: raw['content'], path: contentPath, shape: CONTENT_SHAPE }) }];
    }
  });
  return { value: converted, warnings: context.warnings };
}

function convertUserTurn(content: unknown, path: string, context: Context): Message[] {
  if (isString(content)) return [{ role: 'user', content: [{ type: 'text', text: content }] }];
  const results: ToolResultPart[] = [];
  const parts: UserContentPart[] = [];
  for (const [i, raw] of requireArray(content, path, CONTENT_SHAPE).entries()) {
    const blockPath = `${path}[${i}]`;
    const { block, type } = typedBlock(raw, path, CONTENT_SHAPE);
    if (type === 'tool_result') results.push(convertToolResult(block, blockPath, context));
    else parts.push(...convertUserBlock(type, block, blockPath, context.warnings));
  }
  const messages: Message[] = [];
  if (results.length > 0) messages.push({ role: 'tool', content: results });
  if (parts.length > 0 || results.length === 0) messages.push({ role: 'user', content: parts });
  return messages;
}

function convertUserBlock(type: string, block: JsonObject, path: string, warnings: TranslationWarning[]): UserContentPart[] {
  switch (type) {
    case 'text':
      return [convertTextBlock(block, path)];
    case 'image':
      return [convertImageBlock(block, path)];
    case 'document':
      return [convertDocumentBlock(block, path, warnings)];
    case 'search_result':
      warnings.push({ feature: path, message: 'Search result blocks only reach Anthropic upstreams; dropped for others.' });
      return [];
    default:
      throw unsupportedBlock(type, path);
  }
}

function convertToolResult(block: JsonObject, path: string, context: Context): ToolResultPart {
  const toolCallId = requireString(block, 'tool_use_id', path);
  return compact({
    type: 'tool_result',
    toolCallId,
    toolName: context.toolNames.get(toolCallId),
    content: convertToolResultContent(block['content'], fieldPath(path, 'content'), context.warnings),
    isError: optionalBoolean(block, 'is_error', path),
    cache: cacheHint(block, path),
  });
}

function convertToolResultContent(content: unknown, path: string, warnings: TranslationWarning[]): ToolResultContent[] {
  if (isAbsent(content)) return [];
  if (isString(content)) return [{ type: 'text', text: content }];
  return requireArray(content, path).flatMap((raw, i): ToolResultContent[] => {
    const blockPath = `${path}[${i}]`;
    const { block, type } = nestedBlock(raw, blockPath);
    if (type === 'text') return [convertTextBlock(block, blockPath)];
    if (type === 'image') return [convertImageBlock(block, blockPath)];
    if (type === 'document') return [convertDocumentBlock(block, blockPath, warnings)];
    if (type === 'search_result' || type === 'tool_reference') {
      warnings.push({ feature: blockPath, message: `'${type}' blocks in a tool result only reach Anthropic upstreams; dropped for others.` });
      return [];
    }
    throw unsupportedBlock(type, blockPath);
  });
}

function convertAssistantContent(content: unknown, path: string, context: Context): AssistantContentPart[] {
  // An empty string carries nothing; a prefill of '' would be refused upstream anyway.
  if (isString(content)) return content === '' ? [] : [{ type: 'text', text: content }];
  const parts: AssistantContentPart[] = [];
  // A carrier's signature belongs to the next tool_use; with none after it, it is dropped.
  let carried: ProviderSignature | undefined;
  for (const [i, raw] of requireArray(content, path, CONTENT_SHAPE).entries()) {
    const blockPath = `${path}[${i}]`;
    const { block, type } = typedBlock(raw, path, CONTENT_SHAPE);
    const callSignature = callSignatureCarriedBy(block);
    if (callSignature) {
      carried = callSignature;
      continue;
    }
    for (const part of convertAssistantBlock(type, block, blockPath, context)) {
      if (part.type === 'tool_call' && carried) {
        part.signature = carried;
        carried = undefined;
      }
      parts.push(part);
    }
  }
  return parts;
}

function convertAssistantBlock(type: string, block: JsonObject, path: string, context: Context): AssistantContentPart[] {
  switch (type) {
    case 'text':
      return [convertTextBlock(block, path)];
    case 'thinking': {
      const signature = optionalString(block, 'signature', path);
      // An empty signature is what other dialects' unsigned thinking is shown with: it means none.
      const signed = signature ? { signature: unwrapSignature(signature, 'anthropic') } : {};
      return [{ type: 'thinking', text: requireString(block, 'thinking', path), ...signed }];
    }
    case 'redacted_thinking':
      return [{ type: 'redacted_thinking', data: requireString(block, 'data', path), protocol: 'anthropic' }];
    case 'tool_use':
      return [convertToolUse(block, path, context)];
    default:
      if (!isServerToolBlock(type)) throw unsupportedBlock(type, path);
      context.warnings.push({ feature: path, message: `Server tool block '${type}' only reaches Anthropic upstreams; dropped for others.` });
      return [];
  }
}

function convertToolUse(block: JsonObject, path: string, context: Context): AssistantContentPart {
  const id = requireString(block, 'id', path);
  const name = requireString(block, 'name', path);
  const input = block['input'];
  if (!isRecord(input)) throw invalidField(fieldPath(path, 'input'), 'must be an object');
  context.toolNames.set(id, name);
  return { type: 'tool_call', id, name, arguments: JSON.stringify(input) };
}

/** `server_tool_use`, `web_search_tool_result`, `mcp_tool_use`, `container_upload`… */
function isServerToolBlock(type: string): boolean {
  return /_tool_use$|_tool_result$/.test(type) || type === 'container_upload';
}
