/**
 * Content blocks of dialect-B requests: text, images and documents, wherever they appear (user
 * turns, system, tool results). Every failure names the block's path.
 */
import type {
  GatewayError,
  CacheHint,
  DocumentPart,
  ImagePart,
  MediaSource,
  TextPart,
  TranslationWarning,
} from '@rosetta/canonical';
import {
  compact,
  fieldPath,
  invalidField,
  isAbsent,
  isRecord,
  optionalString,
  requireRecord,
  requireString,
  unsupported,
  isString,
  type JsonObject,
} from '@rosetta/protocols/common';

/** What a message's `content` may be, for the message of one that is neither. */
export const CONTENT_SHAPE = 'must be a string or an array of content blocks, each with a type';

/** A content that is not a string must be an array (blocks nested in a block are named by their own path). */
export function requireArray(value: unknown, path: string, shape = 'must be a string or an array'): unknown[] {
  if (!Array.isArray(value)) throw invalidField(path, shape);
  return value;
}

/**
 * A block of a message's (or the system prompt's) top-level content, with its type: a block that is
 * not an object with a string `type` makes the whole content wrong (`shape` says what it should be).
 */
export function typedBlock(raw: unknown, contentPath: string, shape: string): { block: JsonObject; type: string } {
  if (!isRecord(raw) || typeof raw['type'] !== 'string') throw invalidField(contentPath, shape);
  return { block: raw, type: raw['type'] };
}

/** A block nested inside another (a tool result's content, a document's): named by its own path. */
export function nestedBlock(raw: unknown, path: string): { block: JsonObject; type: string } {
  const block = requireRecord(raw, path);
  return { block, type: requireString(block, 'type', path) };
}

export function unsupportedBlock(type: string, path: string): GatewayError {
  return unsupported(`content block type '${type}'`, fieldPath(path, 'type'));
}

/** `cache_control` → the canonical cache hint; the TTL is kept for upstreams that honour it. */
export function cacheHint(block: JsonObject, path: string): CacheHint | undefined {
  const control = block['cache_control'];
  if (isAbsent(control)) return undefined;
  const parent = fieldPath(path, 'cache_control');
  const record = requireRecord(control, parent);
  return compact({ type: requireString(record, 'type', parent), ttl: optionalString(record, 'ttl', parent) });
}

export function convertTextBlock(block: JsonObject, path: string): TextPart {
  return compact({ type: 'text', text: requireString(block, 'text', path), cache: cacheHint(block, path) });
}

/** `system` (and a system message's content): a string or text blocks. */
export function convertAnthropicMessagesTextContent({ content, path, shape }: { content: unknown; path: string; shape: string }): TextPart[] {
  if (isString(content)) return [{ type: 'text', text: content }];
  return requireArray(content, path, shape).map((raw, i) => {
    const blockPath = `${path}[${i}]`;
    const { block, type } = typedBlock(raw, path, shape);
    if (type !== 'text') throw unsupportedBlock(type, blockPath);
    return convertTextBlock(block, blockPath);
  });
}

export function convertImageBlock(block: JsonObject, path: string): ImagePart {
  const sourcePath = fieldPath(path, 'source');
  const source = requireRecord(block['source'], sourcePath);
  const type = requireString(source, 'type', sourcePath);
  let converted: MediaSource;
  if (type === 'base64') converted = base64Source(source, sourcePath);
  else if (type === 'url') converted = { kind: 'url', url: requireString(source, 'url', sourcePath) };
  else if (type === 'file') converted = { kind: 'file', fileId: requireString(source, 'file_id', sourcePath) };
  else throw unsupported(`image source type '${type}'`, fieldPath(sourcePath, 'type'));
  return compact({ type: 'image', source: converted, cache: cacheHint(block, path) });
}

/**
 * A `content` source (the document given as blocks, for citations) has no canonical form; its text
 * is kept as a plain-text document and any images in it are dropped with a warning.
 */
export function convertDocumentBlock(block: JsonObject, path: string, warnings: TranslationWarning[]): DocumentPart {
  const sourcePath = fieldPath(path, 'source');
  const source = requireRecord(block['source'], sourcePath);
  return compact({
    type: 'document',
    source: documentSource(source, sourcePath, warnings),
    title: optionalString(block, 'title', path),
    context: optionalString(block, 'context', path),
    cache: cacheHint(block, path),
  });
}

function documentSource(source: JsonObject, path: string, warnings: TranslationWarning[]): MediaSource {
  const type = requireString(source, 'type', path);
  switch (type) {
    case 'base64':
      return base64Source(source, path);
    case 'text':
      return { kind: 'text', mediaType: optionalString(source, 'media_type', path) ?? 'text/plain', data: requireString(source, 'data', path) };
    case 'url':
      return { kind: 'url', url: requireString(source, 'url', path) };
    case 'file':
      return { kind: 'file', fileId: requireString(source, 'file_id', path) };
    case 'content':
      return { kind: 'text', mediaType: 'text/plain', data: contentSourceText(source['content'], path, warnings) };
    default:
      throw unsupported(`document source type '${type}'`, fieldPath(path, 'type'));
  }
}

function contentSourceText(content: unknown, path: string, warnings: TranslationWarning[]): string {
  const contentPath = fieldPath(path, 'content');
  if (isString(content)) return content;
  const texts: string[] = [];
  for (const [i, raw] of requireArray(content, contentPath).entries()) {
    const blockPath = `${contentPath}[${i}]`;
    const { block, type } = nestedBlock(raw, blockPath);
    if (type === 'text') texts.push(requireString(block, 'text', blockPath));
    else if (type === 'image') warnings.push({ feature: blockPath, message: `An image inside a document's content has no equivalent upstream; dropped.` });
    else throw unsupportedBlock(type, blockPath);
  }
  return texts.join('\n\n');
}

function base64Source(source: JsonObject, path: string): MediaSource {
  return { kind: 'base64', mediaType: requireString(source, 'media_type', path), data: requireString(source, 'data', path) };
}
