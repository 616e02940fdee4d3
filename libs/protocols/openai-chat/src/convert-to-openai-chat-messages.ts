/**
 * Canonical messages → OpenAI `messages`. What Chat Completions cannot carry is dropped:
 * thinking from earlier turns silently (it is history the upstream neither needs nor accepts),
 * media it cannot reference with a warning.
 */
import type {
  AssistantMessage,
  Converted,
  DocumentPart,
  ImagePart,
  Message,
  SystemMessage,
  ToolMessage,
  TranslationWarning,
  UserContentPart,
  UserMessage,
} from '@rosetta/canonical';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionDeveloperMessageParam,
  ChatCompletionContentPart,
  ChatCompletionContentPartImage,
  ChatCompletionMessageParam,
  ChatCompletionSystemMessageParam,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
} from 'openai/resources/chat/completions';
import { toDataUrl } from '@rosetta/protocols/common';

type Warnings = TranslationWarning[];

export function convertToOpenAIChatMessages({
  messages,
}: {
  messages: Message[];
}): Converted<ChatCompletionMessageParam[]> {
  const warnings: Warnings = [];
  const converted = messages.flatMap((message): ChatCompletionMessageParam[] => {
    switch (message.role) {
      case 'system':
        return [toSystemMessage(message)];
      case 'user':
        return [toUserMessage(message, warnings)];
      case 'assistant':
        return [toAssistantMessage(message)];
      case 'tool':
        return toToolMessages(message, warnings);
    }
  });
  return { value: converted, warnings };
}

/** Parts are joined into one string: the form every OpenAI-compatible server accepts. */
function toSystemMessage(message: SystemMessage): ChatCompletionMessageParam {
  const content = message.content.map((part) => part.text).join('\n\n');
  const converted: ChatCompletionDeveloperMessageParam | ChatCompletionSystemMessageParam = {
    role: message.developer ? 'developer' : 'system',
    content,
  };
  if (message.name !== undefined) converted.name = message.name;
  return converted;
}

function toUserMessage(message: UserMessage, warnings: Warnings): ChatCompletionMessageParam {
  const converted: ChatCompletionUserMessageParam = { role: 'user', content: toUserContent(message, warnings) };
  if (message.name !== undefined) converted.name = message.name;
  return converted;
}

/**
 * A lone text part goes as a plain string, the form every OpenAI-compatible server accepts; so
 * does a message whose parts were all dropped, as an empty array is refused outright.
 */
function toUserContent(message: UserMessage, warnings: Warnings): ChatCompletionUserMessageParam['content'] {
  const only = message.content[0];
  if (message.content.length === 1 && only?.type === 'text') return only.text;
  const parts = message.content.flatMap((part) => toUserPart(part, warnings));
  return parts.length > 0 ? parts : '';
}

function toUserPart(part: UserContentPart, warnings: Warnings): ChatCompletionContentPart[] {
  switch (part.type) {
    case 'text':
      return [{ type: 'text', text: part.text }];
    case 'image':
      return toImagePart(part, warnings);
    case 'document':
      return toDocumentPart(part, warnings);
    case 'audio':
      if (part.format === 'wav' || part.format === 'mp3') {
        return [{ type: 'input_audio', input_audio: { data: part.data, format: part.format } }];
      }
      warnings.push({ feature: 'audio', message: `Audio format '${part.format}' is not accepted upstream; dropped.` });
      return [];
  }
}

const IMAGE_DETAILS = ['auto', 'low', 'high'] as const;
type ImageDetail = (typeof IMAGE_DETAILS)[number];

function toImagePart(part: ImagePart, warnings: Warnings): ChatCompletionContentPart[] {
  const { source } = part;
  let url: string;
  if (source.kind === 'base64') url = toDataUrl(source);
  else if (source.kind === 'url') url = source.url;
  else {
    warnings.push({ feature: 'image', message: `An image given as '${source.kind}' cannot be sent upstream; dropped.` });
    return [];
  }
  const image: ChatCompletionContentPartImage.ImageURL = { url };
  const detail = IMAGE_DETAILS.find((candidate): candidate is ImageDetail => candidate === part.detail);
  if (detail) image.detail = detail;
  return [{ type: 'image_url', image_url: image }];
}

function toDocumentPart(part: DocumentPart, warnings: Warnings): ChatCompletionContentPart[] {
  const { source } = part;
  switch (source.kind) {
    case 'text':
      return [{ type: 'text', text: source.data }];
    case 'base64': {
      // OpenAI refuses inline file data without a filename.
      const filename = part.filename ?? defaultFilename(source.mediaType);
      return [{ type: 'file', file: { file_data: toDataUrl(source), filename } }];
    }
    case 'file': {
      const file = part.filename ? { file_id: source.fileId, filename: part.filename } : { file_id: source.fileId };
      return [{ type: 'file', file }];
    }
    case 'url':
      warnings.push({ feature: 'document', message: 'Chat Completions cannot fetch a document by URL; dropped.' });
      return [];
  }
}

function defaultFilename(mediaType: string): string {
  return mediaType === 'application/pdf' ? 'document.pdf' : 'document';
}

function toAssistantMessage(message: AssistantMessage): ChatCompletionAssistantMessageParam {
  const texts: string[] = [];
  const refusals: string[] = [];
  const toolCalls: NonNullable<ChatCompletionAssistantMessageParam['tool_calls']> = [];
  for (const part of message.content) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'refusal') refusals.push(part.text);
    else if (part.type === 'tool_call') {
      toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } });
    }
  }
  const converted: ChatCompletionAssistantMessageParam = { role: 'assistant', content: assistantText(texts, toolCalls.length) };
  if (refusals.length > 0) converted.refusal = refusals.join('');
  if (toolCalls.length > 0) converted.tool_calls = toolCalls;
  if (message.name !== undefined) converted.name = message.name;
  return converted;
}

/** OpenAI wants null content beside tool calls, and some text (even empty) otherwise. */
function assistantText(texts: string[], toolCallCount: number): string | null {
  if (texts.length > 0) return texts.join('');
  return toolCallCount > 0 ? null : '';
}

/** OpenAI takes one `tool` message per result, with text content only. */
function toToolMessages(message: ToolMessage, warnings: Warnings): ChatCompletionToolMessageParam[] {
  return message.content.map((result) => {
    const texts = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
    if (texts.length < result.content.length) {
      const message =
        `Non-text content in the result of tool call '${result.toolCallId}' cannot be sent upstream; ` +
        'only its text was kept.';
      warnings.push({ feature: 'tool_result', message });
    }
    return { role: 'tool', tool_call_id: result.toolCallId, content: texts.join('\n') };
  });
}
