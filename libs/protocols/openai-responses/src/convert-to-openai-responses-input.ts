/**
 * Canonical messages → Responses input items, for a Responses upstream. Reasoning goes back only
 * when OpenAI issued it (id and encrypted content, byte for byte); tool calls and their outputs
 * take the custom-tool shapes for the request's custom tools and their namespaces back.
 */
import type { Converted, DocumentPart, ImagePart, Message, ToolResultContent, TranslationWarning, UserContentPart } from '@rosetta/canonical';
import { compact, toDataUrl, type JsonObject } from '@rosetta/protocols/common';
import { reasoningIdentity } from './reasoning-signature';
import { customInput, type ToolNames } from './tool-names';

export function convertToOpenAIResponsesInput({ messages, tools }: { messages: readonly Message[]; tools: ToolNames }): Converted<JsonObject[]> {
  const items: JsonObject[] = [];
  const warnings: TranslationWarning[] = [];
  const callNames = new Map<string, string>();
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        items.push({ type: 'message', role: message.developer ? 'developer' : 'system', content: message.content.map((p) => ({ type: 'input_text', text: p.text })) });
        break;
      case 'user':
        items.push({ type: 'message', role: 'user', content: message.content.flatMap((p) => inputPart(p, warnings)) });
        break;
      case 'assistant':
        assistantItems(message.content, tools, callNames, items);
        break;
      case 'tool':
        for (const result of message.content) {
          const custom = tools.wire(callNames.get(result.toolCallId) ?? result.toolName ?? '').custom;
          items.push({ type: custom ? 'custom_tool_call_output' : 'function_call_output', call_id: result.toolCallId, output: toolOutput(result.content, warnings) });
        }
        break;
    }
  }
  return { value: items, warnings };
}

function assistantItems(content: Extract<Message, { role: 'assistant' }>['content'], tools: ToolNames, callNames: Map<string, string>, items: JsonObject[]): void {
  let message: JsonObject[] | undefined;
  for (const part of content) {
    if (part.type === 'text' || part.type === 'refusal') {
      if (!message) {
        message = [];
        items.push({ type: 'message', role: 'assistant', content: message });
      }
      message.push(part.type === 'text' ? { type: 'output_text', text: part.text, annotations: [] } : { type: 'refusal', refusal: part.text });
      continue;
    }
    message = undefined;
    if (part.type === 'thinking') {
      const identity = part.signature?.protocol === 'openai-responses' ? reasoningIdentity(part.signature) : {};
      // OpenAI takes back only its own reasoning items; thinking from elsewhere has no place here.
      if (identity.id !== undefined) items.push(compact({ type: 'reasoning', id: identity.id, summary: part.text === '' ? [] : [{ type: 'summary_text', text: part.text }], encrypted_content: identity.encryptedContent }));
    } else if (part.type === 'tool_call') {
      callNames.set(part.id, part.name);
      const wire = tools.wire(part.name);
      items.push(
        wire.custom
          ? compact({ type: 'custom_tool_call', call_id: part.id, name: wire.name, namespace: wire.namespace, input: customInput(part.arguments) })
          : compact({ type: 'function_call', call_id: part.id, name: wire.name, namespace: wire.namespace, arguments: part.arguments }),
      );
    }
  }
}

function inputPart(part: UserContentPart | ToolResultContent, warnings: TranslationWarning[]): JsonObject[] {
  switch (part.type) {
    case 'text':
      return [{ type: 'input_text', text: part.text }];
    case 'image':
      return [imagePart(part)];
    case 'document':
      return [filePart(part)];
    case 'audio':
      warnings.push({ feature: 'audio', message: 'The Responses API takes no audio input; the audio part was dropped.' });
      return [];
  }
}

function imagePart(part: ImagePart): JsonObject {
  const { source } = part;
  const detail = part.detail ?? 'auto';
  if (source.kind === 'file') return { type: 'input_image', file_id: source.fileId, detail };
  if (source.kind === 'url') return { type: 'input_image', image_url: source.url, detail };
  return { type: 'input_image', image_url: toDataUrl(source), detail };
}

function filePart(part: DocumentPart): JsonObject {
  const { source } = part;
  if (source.kind === 'text') return { type: 'input_text', text: source.data };
  if (source.kind === 'file') return { type: 'input_file', file_id: source.fileId };
  if (source.kind === 'url') return { type: 'input_file', file_url: source.url };
  return { type: 'input_file', filename: part.filename ?? 'document.pdf', file_data: toDataUrl(source) };
}

function toolOutput(content: readonly ToolResultContent[], warnings: TranslationWarning[]): string | JsonObject[] {
  if (content.every((p) => p.type === 'text')) return content.map((p) => (p as { text: string }).text).join('');
  return content.flatMap((p) => inputPart(p, warnings));
}
