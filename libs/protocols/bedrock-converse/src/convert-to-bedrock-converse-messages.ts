/**
 * Canonical messages → Converse `system` and `messages`.
 *
 * - System messages are hoisted, in order, to the top-level `system`; one that came after the
 *   conversation started is flagged, as its position is lost.
 * - Turns alternate user/assistant: consecutive turns of one role are merged, and a canonical tool message joins the user turn around it, its `toolResult` blocks
 *   first.
 * - A cache hint on a part becomes a `cachePoint` block right after it (Bedrock's breakpoint).
 * - Reasoning goes back only when Bedrock signed it (a `bedrock-converse` signature), as
 *   `reasoningContent`; anything else is history Bedrock would refuse, left out.
 */
import { GatewayError, type AssistantMessage, type CacheHint, type Converted, type DocumentPart, type ImagePart, type Message, type ToolResultPart, type TranslationWarning, type UserContentPart } from '@rosetta/canonical';
import { isRecord, signatureFor, unwrapCallSignature, type JsonObject } from '@rosetta/protocols/common';

export type ConverseBlock = JsonObject;

export interface ConverseConversation {
  system: ConverseBlock[];
  messages: { role: 'user' | 'assistant'; content: ConverseBlock[] }[];
}

const CACHE_POINT: ConverseBlock = { cachePoint: { type: 'default' } };
const IMAGE_FORMATS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };
const DOCUMENT_FORMATS: Readonly<Record<string, string>> = {
  'application/pdf': 'pdf', 'text/csv': 'csv', 'text/html': 'html', 'text/plain': 'txt', 'text/markdown': 'md',
  'application/msword': 'doc', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

interface Turn {
  role: 'user' | 'assistant';
  results: ConverseBlock[];
  blocks: ConverseBlock[];
}

export function convertToBedrockConverseMessages(messages: Message[]): Converted<ConverseConversation> {
  const warnings: TranslationWarning[] = [];
  const system: ConverseBlock[] = [];
  const turns: Turn[] = [];
  messages.forEach((message, i) => {
    switch (message.role) {
      case 'system':
        if (turns.length > 0) warnings.push({ feature: 'system', message: `The system message at messages[${i}] was moved to the top-level system prompt.` });
        for (const part of message.content) if (part.text !== '') system.push({ text: part.text }, ...cachePoint(part.cache));
        return;
      case 'user':
        return addToTurn(turns, 'user', 'blocks', message.content.flatMap((part) => userBlocks(part, warnings)));
      case 'tool':
        return addToTurn(turns, 'user', 'results', message.content.flatMap((result) => toolResultBlocks(result, warnings)));
      case 'assistant':
        return addToTurn(turns, 'assistant', 'blocks', assistantBlocks(message, `messages[${i}]`));
    }
  });
  return { value: { system, messages: turns.map((turn) => ({ role: turn.role, content: [...turn.results, ...turn.blocks] })) }, warnings };
}

function cachePoint(hint: CacheHint | undefined): ConverseBlock[] {
  return hint ? [CACHE_POINT] : [];
}

/** A turn whose parts were all dropped is no turn: Bedrock refuses empty content. */
function addToTurn(turns: Turn[], role: Turn['role'], key: 'results' | 'blocks', blocks: ConverseBlock[]): void {
  if (blocks.length === 0) return;
  const last = turns[turns.length - 1];
  if (last?.role === role) {
    last[key].push(...blocks);
    return;
  }
  const turn: Turn = { role, results: [], blocks: [] };
  turn[key].push(...blocks);
  turns.push(turn);
}

function userBlocks(part: UserContentPart, warnings: TranslationWarning[]): ConverseBlock[] {
  switch (part.type) {
    case 'text':
      return part.text === '' ? [] : [{ text: part.text }, ...cachePoint(part.cache)];
    case 'image':
      return imageBlock(part, warnings);
    case 'document':
      return documentBlock(part, warnings);
    case 'audio':
      warnings.push({ feature: 'audio', message: 'Bedrock Converse takes no audio input; an audio part was dropped.' });
      return [];
  }
}

/** Converse takes images as bytes only (or an S3 location, which no client sends). */
function imageBlock(part: ImagePart, warnings: TranslationWarning[]): ConverseBlock[] {
  const { source } = part;
  const format = source.kind === 'base64' ? IMAGE_FORMATS[source.mediaType] : undefined;
  if (source.kind !== 'base64' || !format) {
    const what = source.kind === 'base64' ? `of type '${source.mediaType}'` : `given as a ${source.kind === 'url' ? 'URL' : source.kind}`;
    warnings.push({ feature: 'image', message: `An image ${what} cannot be sent to Bedrock Converse, which takes png, jpeg, gif or webp bytes; dropped.` });
    return [];
  }
  return [{ image: { format, source: { bytes: source.data } } }, ...cachePoint(part.cache)];
}

function documentBlock(part: DocumentPart, warnings: TranslationWarning[]): ConverseBlock[] {
  const { source } = part;
  const bytes = source.kind === 'base64' ? source.data : source.kind === 'text' ? Buffer.from(source.data, 'utf8').toString('base64') : undefined;
  const format = source.kind === 'base64' || source.kind === 'text' ? (DOCUMENT_FORMATS[source.mediaType] ?? (source.mediaType.startsWith('text/') ? 'txt' : undefined)) : undefined;
  if (bytes === undefined || !format) {
    const what = source.kind === 'base64' ? `of type '${source.mediaType}'` : `given as a ${source.kind === 'url' ? 'URL' : source.kind}`;
    warnings.push({ feature: 'document', message: `A document ${what} cannot be sent to Bedrock Converse; dropped.` });
    return [];
  }
  return [{ document: { format, name: documentName(part.title ?? part.filename), source: { bytes } } }, ...cachePoint(part.cache)];
}

/** Bedrock allows letters, digits, single spaces, hyphens, parentheses and brackets in a document's name. */
function documentName(title: string | undefined): string {
  const name = (title ?? 'document').replace(/[^A-Za-z0-9\s\-()[\]]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 200);
  return name === '' ? 'document' : name;
}

function toolResultBlocks(result: ToolResultPart, warnings: TranslationWarning[]): ConverseBlock[] {
  const content = result.content.flatMap((part): ConverseBlock[] => {
    if (part.type === 'text') return [{ text: part.text }];
    if (part.type === 'image') return imageBlock({ ...part, cache: undefined }, warnings);
    return documentBlock({ ...part, cache: undefined }, warnings);
  });
  const block: JsonObject = { toolUseId: result.toolCallId, content: content.length > 0 ? content : [{ text: '' }] };
  if (result.isError) block['status'] = 'error';
  return [{ toolResult: block }, ...cachePoint(result.cache)];
}

function assistantBlocks(message: AssistantMessage, path: string): ConverseBlock[] {
  return message.content.flatMap((part, j): ConverseBlock[] => {
    switch (part.type) {
      case 'text':
        return part.text === '' ? [] : [{ text: part.text }, ...cachePoint(part.cache)];
      case 'refusal':
        return part.text === '' ? [] : [{ text: part.text }];
      case 'thinking': {
        const signature = signatureFor(part.signature, 'bedrock-converse');
        if (signature === undefined || unwrapCallSignature(signature)) return [];
        return [{ reasoningContent: { reasoningText: { text: part.text, signature } } }];
      }
      case 'redacted_thinking':
        return part.protocol === 'bedrock-converse' ? [{ reasoningContent: { redactedContent: part.data } }] : [];
      case 'tool_call':
        return [{ toolUse: { toolUseId: part.id, name: part.name, input: toolInput(part.arguments, part.id, `${path}.content[${j}]`) } }];
    }
  });
}

/** Empty text is an empty object; anything else that is not a JSON object is the caller's error. */
function toolInput(text: string, id: string, path: string): JsonObject {
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) return parsed;
  } catch {
    // reported below
  }
  throw GatewayError.invalidRequest(`The arguments of tool call '${id}' at '${path}' are not a JSON object; Bedrock needs one.`, path);
}
