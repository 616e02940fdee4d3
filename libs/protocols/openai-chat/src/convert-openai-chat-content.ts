/**
 * Message content from dialect-A requests: a string or an array of typed parts. Every failure
 * names the part's path so the caller can find it in a long conversation.
 */
import type { AudioPart, GatewayError, CacheHint, DocumentPart, ImagePart, MediaSource, TextPart, UserContentPart } from '@rosetta/canonical';
import {
  compact,
  fieldPath,
  invalidField,
  isRecord,
  optionalString,
  parseDataUrl,
  requireRecord,
  requireString,
  unsupported,
  type JsonObject,
} from '@rosetta/protocols/common';

/**
 * Chat Completions file inputs are PDFs; a bare base64 `file_data` (no data URL) has no media type
 * of its own, so it is taken to be one.
 */
const DEFAULT_FILE_MEDIA_TYPE = 'application/pdf';

/** What `content` may be, for the message of a content that is neither. */
const CONTENT_SHAPE = 'must be a string or an array of content parts (text, image_url, input_audio, file, refusal); null only for assistant messages';

/** System, developer and tool messages: a string or text parts only. */
export function convertOpenAIChatTextContent({ content, path }: { content: unknown; path: string }): TextPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return partsOf(content, path).map((raw, i) => {
    const partPath = `${path}[${i}]`;
    const part = recordItem(raw, partPath);
    const type = requireString(part, 'type', partPath);
    if (type !== 'text') throw unsupportedPart(type, partPath);
    return convertTextPart(part, partPath);
  });
}

/** User messages: text, images, audio and files. */
export function convertOpenAIChatUserContent({ content, path }: { content: unknown; path: string }): UserContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return partsOf(content, path).map((raw, i) => convertUserPart(raw, `${path}[${i}]`));
}

/** A content that is not a string must be an array of parts. */
export function partsOf(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw invalidField(path, CONTENT_SHAPE);
  return value;
}

/** An item of an array that must be an object (null included: it is there, and it is not one). */
export function recordItem(value: unknown, path: string): JsonObject {
  if (!isRecord(value)) throw invalidField(path, 'must be an object');
  return value;
}

export function unsupportedPart(type: string, partPath: string): GatewayError {
  return unsupported(`content part type '${type}' here`, fieldPath(partPath, 'type'));
}

function convertUserPart(raw: unknown, path: string): UserContentPart {
  const part = recordItem(raw, path);
  const type = requireString(part, 'type', path);
  switch (type) {
    case 'text':
      return convertTextPart(part, path);
    case 'image_url':
      return convertImagePart(part, path);
    case 'input_audio':
      return convertAudioPart(part, path);
    case 'file':
      return convertFilePart(part, path);
    default:
      throw unsupportedPart(type, path);
  }
}

export function convertTextPart(part: JsonObject, path: string): TextPart {
  return compact({ type: 'text', text: requireString(part, 'text', path), cache: cacheHint(part) });
}

function convertImagePart(part: JsonObject, path: string): ImagePart {
  const imagePath = fieldPath(path, 'image_url');
  const image = requireRecord(part['image_url'], imagePath);
  const url = requireString(image, 'url', imagePath);
  const inline = parseDataUrl(url);
  const source: MediaSource = inline ? { kind: 'base64', ...inline } : { kind: 'url', url };
  return compact({ type: 'image', source, detail: optionalString(image, 'detail', imagePath), cache: cacheHint(part) });
}

function convertAudioPart(part: JsonObject, path: string): AudioPart {
  const audioPath = fieldPath(path, 'input_audio');
  const audio = requireRecord(part['input_audio'], audioPath);
  return {
    type: 'audio',
    data: requireString(audio, 'data', audioPath),
    format: requireString(audio, 'format', audioPath),
  };
}

function convertFilePart(part: JsonObject, path: string): DocumentPart {
  const filePath = fieldPath(path, 'file');
  const file = requireRecord(part['file'], filePath);
  const fileData = optionalString(file, 'file_data', filePath);
  const fileId = optionalString(file, 'file_id', filePath);
  let source: MediaSource;
  if (fileData !== undefined) {
    source = { kind: 'base64', ...(parseDataUrl(fileData) ?? { mediaType: DEFAULT_FILE_MEDIA_TYPE, data: fileData }) };
  } else if (fileId !== undefined) {
    source = { kind: 'file', fileId };
  } else {
    throw invalidField(filePath, "needs either 'file_data' or 'file_id'");
  }
  return compact({
    type: 'document',
    source,
    filename: optionalString(file, 'filename', filePath),
    cache: cacheHint(part),
  });
}

/**
 * OpenAI's explicit `prompt_cache_breakpoint` means "cache the prompt up to here", which is what
 * Anthropic's ephemeral `cache_control` means, so it becomes that hint for other upstreams. The
 * `cache_control` that OpenRouter and LiteLLM accept on an OpenAI content part (for agents that
 * speak this dialect to Claude) is read the same way, its TTL kept.
 */
function cacheHint(part: JsonObject): CacheHint | undefined {
  const control = part['cache_control'];
  if (isRecord(control)) return control['ttl'] === '1h' || control['ttl'] === '5m' ? { type: 'ephemeral', ttl: control['ttl'] } : { type: 'ephemeral' };
  return isRecord(part['prompt_cache_breakpoint']) ? { type: 'ephemeral' } : undefined;
}
