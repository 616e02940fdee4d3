/**
 * Content blocks of dialect-B requests: text, images and documents, wherever they appear (user
 * turns, system, tool results). Every failure names the block's path.
 */
import {
  GatewayError,
  type CacheHint,
  type DocumentPart,
  type ImagePart,
  type MediaSource,
  type TextPart,
  type TranslationWarning,
} from '@rosetta/canonical';
import {
  compact,
  fieldPath,
  optionalString,
  requireRecord,
  requireString,
  unsupported,
  isString,
  type JsonObject,
} from '@rosetta/protocols/common';

export function requireArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) {
    throw GatewayError.invalidRequest(`Invalid type for '${path}': expected a string or an array.`, path);
  }
  return value;
}

export function unsupportedBlock(type: string, path: string): GatewayError {
  return unsupported(`content block type '${type}'`, fieldPath(path, 'type'));
}

/** `cache_control` → the canonical cache hint; the TTL is kept for upstreams that honour it. */
export function cacheHint(block: JsonObject, path: string): CacheHint | undefined {
  const control = block['cache_control'];
  if (control === undefined || control === null) return undefined;
  const record = requireRecord(control, fieldPath(path, 'cache_control'));
  const parent = fieldPath(path, 'cache_control');
  return compact({ type: requireString(record, 'type', parent), ttl: optionalString(record, 'ttl', parent) });
}

export function convertTextBlock(block: JsonObject, path: string): TextPart {
  return compact({ type: 'text', text: requireString(block, 'text', path), cache: cacheHint(block, path) });
}

/** `system`: a string or text blocks. */
export function convertAnthropicMessagesTextContent({ content, path }: { content: unknown; path: string }): TextPart[] {
  if (isString(content)) return [{ type: 'text', text: content }];
  return requireArray(content, path).map((raw, i) => {
    const blockPath = `${path}[${i}]`;
    const block = requireRecord(raw, blockPath);
    const type = requireString(block, 'type', blockPath);
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
    const block = requireRecord(raw, blockPath);
    const type = requireString(block, 'type', blockPath);
    if (type === 'text') texts.push(requireString(block, 'text', blockPath));
    else if (type === 'image') warnings.push({ feature: blockPath, message: `An image inside a document's content has no equivalent upstream; dropped.` });
    else throw unsupportedBlock(type, blockPath);
  }
  return texts.join('\n\n');
}

function base64Source(source: JsonObject, path: string): MediaSource {
  return { kind: 'base64', mediaType: requireString(source, 'media_type', path), data: requireString(source, 'data', path) };
}
