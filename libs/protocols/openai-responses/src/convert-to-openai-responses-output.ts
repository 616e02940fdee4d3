/**
 * Canonical assistant content → Responses output items: text and refusals in one message item,
 * thinking as reasoning items (summary text; the signature as `encrypted_content`), tool calls as
 * `function_call` or, for the request's custom tools, `custom_tool_call` items.
 */
import type { AssistantContentPart, RedactedThinkingPart, ThinkingPart, ToolCallPart } from '@rosetta/canonical';
import { compact, wrapCallSignature, type JsonObject } from '@rosetta/protocols/common';
import type { ProviderSignature } from '@rosetta/canonical';
import { itemId } from './responses-ids';
import { redactedSignature, reasoningIdentity } from './reasoning-signature';
import { customInput, type ToolNames } from './tool-names';

export interface OutputContext {
  responseId: string;
  tools: ToolNames;
}

export function convertToOpenAIResponsesOutput(content: readonly AssistantContentPart[], context: OutputContext): JsonObject[] {
  const items: JsonObject[] = [];
  let message: JsonObject[] | undefined;
  for (const part of content) {
    if (part.type === 'text' || part.type === 'refusal') {
      if (!message) {
        message = [];
        items.push(messageItem(itemId(context.responseId, 'msg', items.length), message, 'completed'));
      }
      message.push(part.type === 'text' ? outputText(part.text) : { type: 'refusal', refusal: part.text });
      continue;
    }
    message = undefined;
    const n = items.length;
    if (part.type === 'thinking' || part.type === 'redacted_thinking') items.push(reasoningItem(part, itemId(context.responseId, 'rs', n)));
    else if (part.type === 'tool_call') {
      if (part.signature) items.push(callSignatureItem(part.signature, itemId(context.responseId, 'rs', n)));
      items.push(toolCallItem(part, context, items.length, 'completed'));
    }
  }
  return items;
}

export function outputText(text: string): JsonObject {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

export function messageItem(id: string, content: JsonObject[], status: string): JsonObject {
  return { id, type: 'message', status, content, role: 'assistant' };
}

/**
 * A reasoning item under the gateway's own id, whatever the upstream called it: clients refer to
 * it by that id (the AI SDK's item_reference with store: true), and only an id the gateway issued
 * names the stored response that holds it. OpenAI's own id stays in the signature; OpenAI needs
 * only the encrypted content back (Codex replays reasoning with no id at all).
 */
export function reasoningItem(part: ThinkingPart | RedactedThinkingPart, id: string): JsonObject {
  const identity = part.type === 'thinking' ? reasoningIdentity(part.signature) : { encryptedContent: redactedSignature(part) };
  const summary = part.type === 'thinking' && part.text !== '' ? [{ type: 'summary_text', text: part.text }] : [];
  return compact({ id, type: 'reasoning', summary, encrypted_content: identity.encryptedContent });
}

export function toolCallItem(part: Pick<ToolCallPart, 'id' | 'name' | 'arguments'>, context: OutputContext, n: number, status: string): JsonObject {
  const wire = context.tools.wire(part.name);
  if (wire.custom) {
    return compact({ id: itemId(context.responseId, 'ctc', n), type: 'custom_tool_call', status, call_id: part.id, name: wire.name, namespace: wire.namespace, input: customInput(part.arguments) });
  }
  return compact({ id: itemId(context.responseId, 'fc', n), type: 'function_call', status, arguments: part.arguments, call_id: part.id, name: wire.name, namespace: wire.namespace });
}

/**
 * A tool call's own signature (Gemini signs its function calls) has no field on a Responses
 * call item: it rides in a reasoning item just before the call, with no summary, and goes back
 * on the call when the client replays the turn (the chat dialect does the same in
 * reasoning_details). A Responses upstream never sees it.
 */
export function callSignatureItem(signature: ProviderSignature, id: string): JsonObject {
  return { id, type: 'reasoning', summary: [], encrypted_content: wrapCallSignature(signature) };
}
