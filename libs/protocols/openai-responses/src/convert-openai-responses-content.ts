/**
 * Content parts of Responses input items (`input_text`, `input_image`, `input_file`, and the
 * assistant's `output_text` / `refusal`). Every failure names the part's path.
 */
import type { AssistantContentPart, DocumentPart, ImagePart, MediaSource, TextPart, ToolResultContent, UserContentPart } from '@rosetta/canonical';
import { compact, fieldPath, invalidField, isString, optionalString, parseDataUrl, requireRecord, requireString, unsupported, type JsonObject } from '@rosetta/protocols/common';

/** Responses files with no media type of their own (bare base64) are taken to be PDFs, as OpenAI does. */
const DEFAULT_FILE_MEDIA_TYPE = 'application/pdf';

export function requireList(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw invalidField(path, 'must be a string or an array');
  return value;
}

/** A user, system or developer message's content. */
export function convertInputContent(content: unknown, path: string): UserContentPart[] {
  if (isString(content)) return [{ type: 'text', text: content }];
  return requireList(content, path).map((raw, i) => convertInputPart(raw, `${path}[${i}]`));
}

/** System and developer messages take text only. */
export function convertSystemContent(content: unknown, path: string): TextPart[] {
  return convertInputContent(content, path).map((part, i) => {
    if (part.type !== 'text') throw unsupported(`${part.type} content in a system or developer message`, `${path}[${i}]`);
    return part;
  });
}

/** An assistant message's content as the client replays it. */
export function convertAssistantContent(content: unknown, path: string): AssistantContentPart[] {
  if (isString(content)) return [{ type: 'text', text: content }];
  return requireList(content, path).map((raw, i): AssistantContentPart => {
    const partPath = `${path}[${i}]`;
    const part = requireRecord(raw, partPath);
    const type = requireString(part, 'type', partPath);
    if (type === 'output_text' || type === 'input_text') return { type: 'text', text: requireString(part, 'text', partPath) };
    if (type === 'refusal') return { type: 'refusal', text: requireString(part, 'refusal', partPath) };
    throw unsupported(`content part type '${type}'`, fieldPath(partPath, 'type'));
  });
}

/** A tool's output: a string, or input parts. */
export function convertToolOutput(output: unknown, path: string): ToolResultContent[] {
  if (isString(output)) return [{ type: 'text', text: output }];
  return requireList(output, path).map((raw, i) => {
    const part = convertInputPart(raw, `${path}[${i}]`);
    if (part.type === 'audio') throw unsupported('audio in a tool output', `${path}[${i}]`);
    return part;
  });
}

function convertInputPart(raw: unknown, path: string): UserContentPart {
  const part = requireRecord(raw, path);
  const type = requireString(part, 'type', path);
  switch (type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: requireString(part, 'text', path) };
    case 'input_image':
      return convertImage(part, path);
    case 'input_file':
      return convertFile(part, path);
    default:
      throw unsupported(`content part type '${type}'`, fieldPath(path, 'type'));
  }
}

function convertImage(part: JsonObject, path: string): ImagePart {
  const url = optionalString(part, 'image_url', path);
  const fileId = optionalString(part, 'file_id', path);
  let source: MediaSource;
  if (url !== undefined) {
    const inline = parseDataUrl(url);
    source = inline ? { kind: 'base64', ...inline } : { kind: 'url', url };
  } else if (fileId !== undefined) {
    source = { kind: 'file', fileId };
  } else {
    throw invalidField(path, "needs either 'image_url' or 'file_id'");
  }
  const detail = optionalString(part, 'detail', path);
  return compact({ type: 'image', source, detail: detail === 'auto' ? undefined : detail });
}

function convertFile(part: JsonObject, path: string): DocumentPart {
  const data = optionalString(part, 'file_data', path);
  const url = optionalString(part, 'file_url', path);
  const fileId = optionalString(part, 'file_id', path);
  let source: MediaSource;
  if (data !== undefined) source = { kind: 'base64', ...(parseDataUrl(data) ?? { mediaType: DEFAULT_FILE_MEDIA_TYPE, data }) };
  else if (url !== undefined) source = { kind: 'url', url };
  else if (fileId !== undefined) source = { kind: 'file', fileId };
  else throw invalidField(path, "needs one of 'file_data', 'file_url' or 'file_id'");
  return compact({ type: 'document', source, filename: optionalString(part, 'filename', path) });
}
