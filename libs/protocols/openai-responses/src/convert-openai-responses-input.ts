/**
 * Responses `instructions` + `input` → canonical messages. Items that belong to the assistant's
 * turn (its messages, reasoning, tool calls) gather into one assistant message; tool outputs that
 * follow one another into one tool message. Item types the canonical model has no place for
 * (hosted-tool calls such as `web_search_call`) are dropped with a warning: a Responses upstream
 * still receives them, untouched, on the same-protocol path.
 */
import { GatewayError, type AssistantContentPart, type Converted, type Message, type ProviderSignature, type ToolCallPart, type ToolResultPart, type TranslationWarning } from '@rosetta/canonical';
import { compact, fieldPath, isString, optionalEnum, optionalString, requireRecord, requireString, unwrapCallSignature, type JsonObject } from '@rosetta/protocols/common';
import { convertAssistantContent, convertInputContent, convertSystemContent, convertToolOutput, requireList } from './convert-openai-responses-content';
import { reasoningOrigin } from './reasoning-signature';
import { customArguments, flatName } from './tool-names';

const ROLES = ['user', 'assistant', 'system', 'developer'] as const;

export function convertOpenAIResponsesInput({ input, instructions }: { input: unknown; instructions?: string }): Converted<Message[]> {
  const builder = new MessageBuilder();
  if (instructions !== undefined && instructions !== '') builder.push({ role: 'system', content: [{ type: 'text', text: instructions }] });
  if (isString(input)) {
    builder.push({ role: 'user', content: [{ type: 'text', text: input }] });
  } else if (input !== undefined && input !== null) {
    for (const [i, raw] of requireList(input, 'input').entries()) convertItem(requireRecord(raw, `input[${i}]`), `input[${i}]`, builder);
  }
  return { value: builder.messages, warnings: builder.warnings };
}

function convertItem(item: JsonObject, path: string, out: MessageBuilder): void {
  const type = optionalString(item, 'type', path) ?? 'message';
  switch (type) {
    case 'message':
      return convertMessage(item, path, out);
    case 'function_call':
      return out.toolCall({ type: 'tool_call', id: requireString(item, 'call_id', path), name: flatName(optionalString(item, 'namespace', path), requireString(item, 'name', path)), arguments: requireString(item, 'arguments', path) });
    case 'custom_tool_call':
      return out.toolCall({ type: 'tool_call', id: requireString(item, 'call_id', path), name: flatName(optionalString(item, 'namespace', path), requireString(item, 'name', path)), arguments: customArguments(requireString(item, 'input', path)) });
    case 'function_call_output':
    case 'custom_tool_call_output':
      return out.toolResult({ type: 'tool_result', toolCallId: requireString(item, 'call_id', path), content: convertToolOutput(item['output'], fieldPath(path, 'output')) });
    case 'reasoning': {
      const callSignature = unwrapCallSignature(optionalString(item, 'encrypted_content', path) ?? '');
      if (callSignature) out.pendingCallSignature = callSignature;
      else out.assistant(convertReasoning(item, path));
      return;
    }
    case 'item_reference':
      // References are expanded from the stored conversation before decoding; one left here names
      // nothing this key can see.
      throw itemNotFound(requireString(item, 'id', path), fieldPath(path, 'id'));
    default:
      out.warnings.push({ feature: 'input', message: `Input item '${path}' of type '${type}' has no equivalent upstream and was dropped.` });
  }
}

function convertMessage(item: JsonObject, path: string, out: MessageBuilder): void {
  const role = optionalEnum(item, 'role', ROLES, path) ?? requireRole(path);
  const contentPath = fieldPath(path, 'content');
  if (role === 'assistant') {
    for (const part of convertAssistantContent(item['content'], contentPath)) out.assistant(part);
  } else if (role === 'user') {
    out.push({ role: 'user', content: convertInputContent(item['content'], contentPath) });
  } else {
    out.push(compact({ role: 'system' as const, content: convertSystemContent(item['content'], contentPath), developer: role === 'developer' ? true : undefined }));
  }
}

function requireRole(path: string): never {
  return requireString({}, 'role', path) as never;
}

function convertReasoning(item: JsonObject, path: string): AssistantContentPart {
  const summary = Array.isArray(item['summary']) ? item['summary'] : [];
  const texts = summary.map((raw, i) => requireString(requireRecord(raw, `${path}.summary[${i}]`), 'text', `${path}.summary[${i}]`));
  // Open-weight reasoners (gpt-oss) return their raw reasoning as `content` rather than a summary.
  if (texts.length === 0 && Array.isArray(item['content'])) {
    for (const [i, raw] of item['content'].entries()) texts.push(requireString(requireRecord(raw, `${path}.content[${i}]`), 'text', `${path}.content[${i}]`));
  }
  const origin = reasoningOrigin(optionalString(item, 'id', path), optionalString(item, 'encrypted_content', path));
  if ('redacted' in origin) return { type: 'redacted_thinking', ...origin.redacted };
  return compact({ type: 'thinking' as const, text: texts.join('\n\n'), signature: origin.signature });
}

/** An `item_reference` that names nothing stored for this key: OpenAI's 400, field named. */
export function itemNotFound(id: string, path: string): GatewayError {
  return GatewayError.invalidRequest(`Item with id '${id}' not found.`, path);
}

class MessageBuilder {
  readonly messages: Message[] = [];
  readonly warnings: TranslationWarning[] = [];
  /** A signature carried for the next tool call (see callSignatureItem). */
  pendingCallSignature?: ProviderSignature;

  toolCall(part: ToolCallPart): void {
    if (this.pendingCallSignature) part.signature = this.pendingCallSignature;
    this.pendingCallSignature = undefined;
    this.assistant(part);
  }

  push(message: Message): void {
    this.messages.push(message);
  }

  assistant(part: AssistantContentPart): void {
    const last = this.messages[this.messages.length - 1];
    if (last?.role === 'assistant') last.content.push(part);
    else this.messages.push({ role: 'assistant', content: [part] });
  }

  toolResult(part: ToolResultPart): void {
    const last = this.messages[this.messages.length - 1];
    if (last?.role === 'tool') last.content.push(part);
    else this.messages.push({ role: 'tool', content: [part] });
  }
}
