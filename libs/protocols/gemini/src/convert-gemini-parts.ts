/**
 * One dialect-C `Part` → one canonical content part. A Part holds exactly one data field
 * (text, inlineData, fileData, functionCall, functionResponse, executableCode,
 * codeExecutionResult), with an optional `thoughtSignature` beside it. Parts with no canonical
 * form (video, code execution, media produced by the model) are dropped with a warning: a
 * Gemini upstream still receives them through the fast path.
 */
import type {
  AssistantContentPart,
  DocumentPart,
  MediaSource,
  ProviderSignature,
  TextPart,
  ThinkingPart,
  ToolCallPart,
  ToolResultContent,
  ToolResultPart,
  TranslationWarning,
  UserContentPart,
} from '@rosetta/canonical';
import {
  compact,
  fieldPath,
  invalidField,
  isRecord,
  isString,
  optionalString,
  requireRecord,
  requireString,
  unsupported,
  unwrapSignature,
  type JsonObject,
} from '@rosetta/protocols/common';
import { audioFormatOf, guessMediaType, mediaKindOf } from './gemini-media';

export type PartKind =
  | 'text'
  | 'inlineData'
  | 'fileData'
  | 'functionCall'
  | 'functionResponse'
  | 'executableCode'
  | 'codeExecutionResult';

const DATA_FIELDS: readonly Exclude<PartKind, 'text'>[] = [
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
];

/**
 * Proto3 JSON omits empty strings, so a part carrying only a signature (how Gemini ends a
 * streamed block) may arrive without `text`: it is an empty text part.
 */
export function partKind(part: JsonObject, path: string): PartKind {
  if (part['text'] !== undefined && part['text'] !== null) return 'text';
  const field = DATA_FIELDS.find((name) => part[name] !== undefined && part[name] !== null);
  if (field) return field;
  if (part['thoughtSignature'] !== undefined || part['thought'] !== undefined) return 'text';
  throw invalidField(path, 'has no data field (text, inlineData, fileData, functionCall, functionResponse)');
}

export function partSignature(part: JsonObject, path: string): ProviderSignature | undefined {
  const value = optionalString(part, 'thoughtSignature', path);
  return value ? unwrapSignature(value, 'gemini') : undefined;
}

function partText(part: JsonObject, path: string): string {
  return optionalString(part, 'text', path) ?? '';
}

/** A part of a user content, other than a function response (the caller splits those off). */
export function convertUserPart(part: JsonObject, path: string, warnings: TranslationWarning[]): UserContentPart | undefined {
  const kind = partKind(part, path);
  switch (kind) {
    case 'text':
      return compact<TextPart>({ type: 'text', text: partText(part, path), signature: partSignature(part, path) });
    case 'inlineData':
    case 'fileData':
      return convertMedia(part, kind, path, warnings);
    case 'executableCode':
    case 'codeExecutionResult':
      warnings.push(codeExecutionWarning(kind, path));
      return undefined;
    default:
      throw unsupported(`'${kind}' part in a user content`, fieldPath(path, kind));
  }
}

/** A part of a model content; `callId` names a call that carries no id of its own. */
export function convertModelPart(
  part: JsonObject,
  path: string,
  callId: string,
  warnings: TranslationWarning[],
): AssistantContentPart | undefined {
  const kind = partKind(part, path);
  const signature = partSignature(part, path);
  switch (kind) {
    case 'text': {
      const text = partText(part, path);
      // An empty piece (how a streamed reply often ends) carries nothing unless it is signed.
      if (text === '' && !signature) return undefined;
      return part['thought'] === true
        ? compact<ThinkingPart>({ type: 'thinking', text, signature })
        : compact<TextPart>({ type: 'text', text, signature });
    }
    case 'functionCall':
      return convertFunctionCall(part, path, callId, signature);
    case 'inlineData':
    case 'fileData':
      warnings.push({ feature: path, message: `Media in a model turn ('${path}') has no canonical form; dropped.` });
      return undefined;
    case 'executableCode':
    case 'codeExecutionResult':
      warnings.push(codeExecutionWarning(kind, path));
      return undefined;
    default:
      throw unsupported(`'${kind}' part in a model content`, fieldPath(path, kind));
  }
}

function convertFunctionCall(part: JsonObject, path: string, callId: string, signature?: ProviderSignature): ToolCallPart {
  const callPath = fieldPath(path, 'functionCall');
  const call = requireRecord(part['functionCall'], callPath);
  const args = call['args'] ?? {};
  if (!isRecord(args)) throw invalidField(`${callPath}.args`, 'must be an object');
  return compact({
    type: 'tool_call',
    id: optionalString(call, 'id', callPath) || callId,
    name: requireString(call, 'name', callPath),
    arguments: JSON.stringify(args),
    signature,
  });
}

/**
 * A function response becomes a tool result holding one text part: the `output` (a string
 * unquoted, anything else as JSON), or, when there is none, the whole response object. Gemini's
 * convention marks failures with an `error` key.
 */
export function convertFunctionResponse(
  part: JsonObject,
  path: string,
  resolveId: (name: string, id: string | undefined) => string,
  warnings: TranslationWarning[],
): ToolResultPart {
  const responsePath = fieldPath(path, 'functionResponse');
  const fn = requireRecord(part['functionResponse'], responsePath);
  const name = requireString(fn, 'name', responsePath);
  const response = fn['response'] === undefined || fn['response'] === null ? {} : requireRecord(fn['response'], `${responsePath}.response`);
  const hasOutput = response['output'] !== undefined;
  const output = hasOutput ? response['output'] : response;
  const content: ToolResultContent[] = [{ type: 'text', text: isString(output) ? output : JSON.stringify(output) }];
  if (Array.isArray(fn['parts'])) content.push(...convertResponseMedia(fn['parts'], `${responsePath}.parts`, warnings));
  return compact({
    type: 'tool_result',
    toolCallId: resolveId(name, optionalString(fn, 'id', responsePath) || undefined),
    toolName: name,
    content,
    isError: !hasOutput && response['error'] !== undefined ? true : undefined,
  });
}

/** Multimodal function responses (`functionResponse.parts`): images and documents only. */
function convertResponseMedia(parts: unknown[], path: string, warnings: TranslationWarning[]): ToolResultContent[] {
  return parts.flatMap((raw, i): ToolResultContent[] => {
    const partPath = `${path}[${i}]`;
    const part = requireRecord(raw, partPath);
    const kind = part['inlineData'] !== undefined ? 'inlineData' : 'fileData';
    const media = convertMedia(part, kind, partPath, warnings);
    if (media?.type === 'audio') {
      warnings.push({ feature: partPath, message: `Audio in a function response ('${partPath}') has no canonical form; dropped.` });
      return [];
    }
    return media ? [media] : [];
  });
}

function convertMedia(
  part: JsonObject,
  kind: 'inlineData' | 'fileData',
  path: string,
  warnings: TranslationWarning[],
): UserContentPart | undefined {
  const mediaPath = fieldPath(path, kind);
  const media = requireRecord(part[kind], mediaPath);
  const inline = kind === 'inlineData';
  const data = inline ? requireString(media, 'data', mediaPath) : requireString(media, 'fileUri', mediaPath);
  const mimeType = inline ? requireString(media, 'mimeType', mediaPath) : optionalString(media, 'mimeType', mediaPath) ?? guessMediaType(data);
  const mediaKind = mimeType === undefined ? 'document' : mediaKindOf(mimeType);
  if (mediaKind === undefined) {
    warnings.push({ feature: path, message: `Media of type '${mimeType}' at '${path}' has no canonical form; dropped.` });
    return undefined;
  }
  if (mediaKind === 'audio') {
    if (inline) return { type: 'audio', data, format: audioFormatOf(mimeType ?? '') };
    warnings.push({ feature: path, message: `Audio by URI ('${path}') has no canonical form; dropped.` });
    return undefined;
  }
  const source: MediaSource =
    inline && mimeType !== undefined
      ? { kind: 'base64', mediaType: mimeType, data }
      : compact<MediaSource>({ kind: 'url', url: data, mediaType: mimeType });
  const title = optionalString(media, 'displayName', mediaPath);
  return mediaKind === 'image' ? { type: 'image', source } : compact<DocumentPart>({ type: 'document', source, title });
}

function codeExecutionWarning(kind: PartKind, path: string): TranslationWarning {
  return { feature: path, message: `'${kind}' at '${path}' has no canonical form; dropped.` };
}
