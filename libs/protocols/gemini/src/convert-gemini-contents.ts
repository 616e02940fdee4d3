/**
 * Dialect-C `systemInstruction` and `contents` → canonical messages.
 *
 * - Roles are `user` and `model`; the legacy `function` role (older cookbook examples) and a
 *   missing role are user turns.
 * - Function responses in a user turn become one canonical tool message, placed before the
 *   rest of that turn. A response without an id answers the call of the same name in the
 *   previous model turn (in order), whose id is its own or one derived from its position.
 * - Consecutive model contents form one assistant message, and adjacent text (or thought)
 *   pieces of it are joined up to the one that carries a signature: the Gemini SDK records a
 *   streamed reply as one content per chunk, and a block's signature arrives on its last piece.
 */
import type {
  AssistantContentPart,
  AssistantMessage,
  Message,
  SystemMessage,
  TextPart,
  ToolResultPart,
  TranslationWarning,
  UserContentPart,
} from '@rosetta/canonical';
import { invalidField, isAbsent, missingField, isRecord, isString, optionalEnum, optionalString, requireList, requireRecord, unsupported, type JsonObject } from '@rosetta/protocols/common';
import { convertFunctionResponse, convertModelPart, convertUserPart, partKind } from './convert-gemini-parts';
import { geminiToolCallId } from './gemini-tool-call-id';

type Warnings = TranslationWarning[];

/** Ids of the previous model turn's calls, by function name, in order. */
type PendingCalls = Map<string, string[]>;

/**
 * The system instruction: a Content (its `parts` required) at the top level, where Google's wire
 * format puts it; in the SDK's config object (`generationConfig.systemInstruction`) a string too.
 */
export function convertGeminiSystemInstruction(raw: unknown, path: string): SystemMessage | undefined {
  if (isAbsent(raw)) return undefined;
  if (isString(raw)) return { role: 'system', content: [{ type: 'text', text: raw }] };
  const instruction = requireRecord(raw, path);
  const topLevel = path === 'systemInstruction';
  if (topLevel) contentRole(instruction, path);
  const parts = topLevel ? requireParts(instruction, path) : optionalParts(instruction, path);
  const content = parts.map((rawPart, i): TextPart => {
    const partPath = `${path}.parts[${i}]`;
    const part = requireRecord(rawPart, partPath);
    if (partKind(part, partPath) !== 'text') throw unsupported('non-text part in the system instruction', partPath);
    return { type: 'text', text: optionalString(part, 'text', partPath) ?? '' };
  });
  return content.length > 0 ? { role: 'system', content } : undefined;
}

export function convertGeminiContents({ contents, warnings }: { contents: unknown; warnings: Warnings }): Message[] {
  const messages: Message[] = [];
  let pending: PendingCalls = new Map();
  let previousRole: 'user' | 'model' | undefined;
  requireList(contents, 'contents', 1).forEach((raw, i) => {
    const path = `contents[${i}]`;
    if (!isRecord(raw)) throw invalidField(path, 'must be an object');
    const content = raw;
    const role = contentRole(content, path);
    if (role === 'model') {
      if (previousRole !== 'model') pending = new Map();
      appendModelContent(messages, content, i, pending, warnings);
    } else {
      messages.push(...convertUserContent(content, i, pending, warnings));
    }
    previousRole = role;
  });
  return messages;
}

/** The legacy `function` role (older cookbook examples) and a missing role are user turns. */
function contentRole(content: JsonObject, path: string): 'user' | 'model' {
  const role = optionalEnum(content, 'role', ['user', 'model', 'function'] as const, path, "must be 'user' or 'model'");
  return role === 'model' ? 'model' : 'user';
}

/** A content's `parts`: required, and every part an object. */
function requireParts(content: JsonObject, path: string): unknown[] {
  const parts = content['parts'];
  if (isAbsent(parts)) throw missingField(`${path}.parts`);
  if (!Array.isArray(parts) || !parts.every(isRecord)) throw invalidField(`${path}.parts`, 'must be an array of part objects');
  return parts;
}

/** The SDK config's system instruction: parts may be left out, and each is named by its own path. */
function optionalParts(content: JsonObject, path: string): unknown[] {
  return isAbsent(content['parts']) ? [] : requireList(content['parts'], `${path}.parts`);
}

function appendModelContent(messages: Message[], content: JsonObject, index: number, pending: PendingCalls, warnings: Warnings): void {
  const path = `contents[${index}]`;
  const last = messages[messages.length - 1];
  const message: AssistantMessage = last?.role === 'assistant' ? last : { role: 'assistant', content: [] };
  requireParts(content, path).forEach((raw, j) => {
    const partPath = `${path}.parts[${j}]`;
    const part = convertModelPart(requireRecord(raw, partPath), partPath, geminiToolCallId(index, j), warnings);
    if (!part) return;
    if (part.type === 'tool_call') pending.set(part.name, [...(pending.get(part.name) ?? []), part.id]);
    appendAssistantPart(message.content, part);
  });
  if (message !== last && message.content.length > 0) messages.push(message);
}

/** Joins a text or thought piece to the one before it, unless that one is already signed. */
function appendAssistantPart(content: AssistantContentPart[], part: AssistantContentPart): void {
  const last = content[content.length - 1];
  if ((part.type === 'text' || part.type === 'thinking') && last?.type === part.type && last.signature === undefined) {
    last.text += part.text;
    if (part.signature) last.signature = part.signature;
    return;
  }
  content.push(part);
}

function convertUserContent(content: JsonObject, index: number, pending: PendingCalls, warnings: Warnings): Message[] {
  const path = `contents[${index}]`;
  const results: ToolResultPart[] = [];
  const rest: UserContentPart[] = [];
  requireParts(content, path).forEach((raw, j) => {
    const partPath = `${path}.parts[${j}]`;
    const part = requireRecord(raw, partPath);
    if (partKind(part, partPath) === 'functionResponse') {
      // A response answering no known call keeps a position-derived id, so it is at least stable.
      const resolveId = (name: string, id: string | undefined): string =>
        takeCallId(pending, name, id) ?? geminiToolCallId(index, j);
      results.push(convertFunctionResponse(part, partPath, resolveId, warnings));
      return;
    }
    const converted = convertUserPart(part, partPath, warnings);
    if (converted) rest.push(converted);
  });
  const messages: Message[] = [];
  if (results.length > 0) messages.push({ role: 'tool', content: results });
  if (rest.length > 0) messages.push({ role: 'user', content: rest });
  return messages;
}

/** The id a response answers: its own, else the next unanswered call of that name. */
function takeCallId(pending: PendingCalls, name: string, id: string | undefined): string | undefined {
  const queue = pending.get(name);
  if (id !== undefined) {
    const at = queue?.indexOf(id) ?? -1;
    if (queue && at >= 0) queue.splice(at, 1);
    return id;
  }
  return queue?.shift();
}
