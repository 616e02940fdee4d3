/**
 * Canonical messages → Gemini `systemInstruction` and `contents`.
 *
 * - System text is hoisted to `systemInstruction` (Gemini has no system turn).
 * - Assistant turns are `model` contents; tool results are `functionResponse` parts of a `user`
 *   content; consecutive contents of one role are merged, so all results of a turn (and any
 *   text the user sent with them) travel in one user content, as Gemini asks.
 * - Signatures go back only when Gemini issued them; thinking without one is history Gemini
 *   neither needs nor can verify, so it is dropped.
 */
import {
  GatewayError,
  type AssistantMessage,
  type Converted,
  type DocumentPart,
  type ImagePart,
  type Message,
  type ToolMessage,
  type TranslationWarning,
  type UserContentPart,
} from '@rosetta/canonical';
import type { Content, Part } from '@google/genai';
import { isRecord, parseDataUrl, signatureFor } from '@rosetta/protocols/common';
import { audioMimeTypeOf, guessMediaType } from './gemini-media';
import { isSyntheticGeminiToolCallId } from './gemini-tool-call-id';

type Warnings = TranslationWarning[];

export interface GeminiContents {
  systemInstruction?: Content;
  contents: Content[];
}

export function convertToGeminiContents({ messages }: { messages: Message[] }): Converted<GeminiContents> {
  const warnings: Warnings = [];
  const toolNames = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) if (part.type === 'tool_call') toolNames.set(part.id, part.name);
  }
  const system: string[] = [];
  const contents: Content[] = [];
  messages.forEach((message, i) => {
    if (message.role === 'system') {
      if (contents.length > 0) {
        warnings.push({ feature: `messages[${i}]`, message: 'Gemini takes system text only at the start; it was moved there.' });
      }
      system.push(...message.content.map((part) => part.text));
      return;
    }
    appendContent(contents, toContent(message, i, toolNames, warnings));
  });
  const value: GeminiContents = { contents };
  if (system.length > 0) value.systemInstruction = { parts: [{ text: system.join('\n\n') }] };
  return { value, warnings };
}

function toContent(message: Exclude<Message, { role: 'system' }>, index: number, toolNames: Map<string, string>, warnings: Warnings): Content {
  switch (message.role) {
    case 'user':
      return { role: 'user', parts: message.content.flatMap((part) => toUserPart(part, warnings)) };
    case 'assistant':
      return { role: 'model', parts: toModelParts(message, index) };
    case 'tool':
      return { role: 'user', parts: toFunctionResponses(message, index, toolNames, warnings) };
  }
}

/** Gemini refuses contents without parts, and expects one content per turn. */
function appendContent(contents: Content[], content: Content): void {
  if (!content.parts || content.parts.length === 0) return;
  const last = contents[contents.length - 1];
  if (last && last.role === content.role) {
    last.parts = [...(last.parts ?? []), ...content.parts];
    return;
  }
  contents.push(content);
}

function toUserPart(part: UserContentPart, warnings: Warnings): Part[] {
  switch (part.type) {
    case 'text':
      return [{ text: part.text }];
    case 'image':
    case 'document':
      return toMediaPart(part, warnings);
    case 'audio':
      return [{ inlineData: { mimeType: audioMimeTypeOf(part.format), data: part.data } }];
  }
}

const DEFAULT_MEDIA_TYPE = { image: 'image/jpeg', document: 'application/pdf' } as const;

/** Inline bytes → inlineData; a URL → fileData, which needs a MIME type (guessed if unknown). */
function toMediaPart(part: ImagePart | DocumentPart, warnings: Warnings): Part[] {
  const { source } = part;
  switch (source.kind) {
    case 'base64':
      return [{ inlineData: { mimeType: source.mediaType, data: source.data } }];
    case 'text':
      return [{ text: source.data }];
    case 'url': {
      const inline = parseDataUrl(source.url);
      if (inline) return [{ inlineData: { mimeType: inline.mediaType, data: inline.data } }];
      const mimeType = source.mediaType ?? guessMediaType(source.url) ?? DEFAULT_MEDIA_TYPE[part.type];
      return [{ fileData: { mimeType, fileUri: source.url } }];
    }
    case 'file':
      warnings.push({ feature: part.type, message: `The ${part.type} given as file id '${source.fileId}' cannot be sent to Gemini; dropped.` });
      return [];
  }
}

function toModelParts(message: AssistantMessage, index: number): Part[] {
  return message.content.flatMap((part, j): Part[] => {
    switch (part.type) {
      case 'text':
        return [withSignature({ text: part.text }, signatureFor(part.signature, 'gemini'))];
      case 'refusal':
        return [{ text: part.text }];
      case 'thinking': {
        const signature = signatureFor(part.signature, 'gemini');
        return signature === undefined ? [] : [{ text: part.text, thought: true, thoughtSignature: signature }];
      }
      case 'tool_call': {
        const call = { name: part.name, args: parseArguments(part.arguments, `messages[${index}].content[${j}].arguments`) };
        const functionCall = isSyntheticGeminiToolCallId(part.id) ? call : { id: part.id, ...call };
        return [withSignature({ functionCall }, signatureFor(part.signature, 'gemini'))];
      }
      case 'redacted_thinking':
        return [];
    }
  });
}

function withSignature(part: Part, signature: string | undefined): Part {
  return signature === undefined ? part : { ...part, thoughtSignature: signature };
}

/** Gemini takes arguments as an object; '' (a call without arguments) is the empty one. */
function parseArguments(text: string, path: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw GatewayError.invalidRequest(`The arguments at '${path}' are not valid JSON.`, path);
  }
  if (!isRecord(parsed)) throw GatewayError.invalidRequest(`The arguments at '${path}' must be a JSON object.`, path);
  return parsed;
}

function toFunctionResponses(message: ToolMessage, index: number, toolNames: Map<string, string>, warnings: Warnings): Part[] {
  return message.content.map((result, j) => {
    const name = result.toolName ?? toolNames.get(result.toolCallId);
    if (name === undefined) {
      const path = `messages[${index}].content[${j}]`;
      throw GatewayError.invalidRequest(
        `The tool result for '${result.toolCallId}' answers no tool call in the conversation, so its function name is unknown.`,
        path,
      );
    }
    const texts = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
    if (texts.length < result.content.length) {
      warnings.push({
        feature: 'tool_result',
        message: `Non-text content in the result of tool call '${result.toolCallId}' cannot be sent to Gemini; only its text was kept.`,
      });
    }
    const value = parseResult(texts.join('\n'));
    const response = result.isError ? { error: value } : { output: value };
    const functionResponse = isSyntheticGeminiToolCallId(result.toolCallId) ? { name, response } : { id: result.toolCallId, name, response };
    return { functionResponse };
  });
}

/** A JSON result goes as its value, so the model sees structure; anything else as the text. */
function parseResult(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
