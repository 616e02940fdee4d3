/**
 * Canonical content parts → Anthropic content blocks. Media Anthropic cannot take is dropped with
 * a warning naming what was lost; empty text is left out, as Anthropic refuses empty text blocks.
 */
import {
  GatewayError,
  type CacheHint,
  type DocumentPart,
  type ImagePart,
  type TextPart,
  type ToolCallPart,
  type ToolResultContent,
  type ToolResultPart,
  type TranslationWarning,
  type UserContentPart,
} from '@rosetta/canonical';
import type {
  Base64ImageSource,
  CacheControlEphemeral,
  ContentBlockParam,
  DocumentBlockParam,
  ImageBlockParam,
  TextBlockParam,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { parseToolArguments } from './parse-tool-arguments';

type Warnings = TranslationWarning[];
type ToolResultBlock = Exclude<ToolResultBlockParam['content'], string | undefined>[number];

const IMAGE_TYPES: readonly Base64ImageSource['media_type'][] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

export function toCacheControl(hint: CacheHint | undefined): CacheControlEphemeral | undefined {
  if (!hint) return undefined;
  // Anthropic knows one cache type; every dialect's breakpoint means the same thing.
  const control: CacheControlEphemeral = { type: 'ephemeral' };
  if (hint.ttl === '5m' || hint.ttl === '1h') control.ttl = hint.ttl;
  return control;
}

export function toTextBlocks(parts: TextPart[]): TextBlockParam[] {
  return parts.flatMap((part) => {
    if (part.text === '') return [];
    const block: TextBlockParam = { type: 'text', text: part.text };
    const cache = toCacheControl(part.cache);
    if (cache) block.cache_control = cache;
    return [block];
  });
}

export function toUserBlocks(parts: UserContentPart[], warnings: Warnings): ContentBlockParam[] {
  return parts.flatMap((part): ContentBlockParam[] => {
    switch (part.type) {
      case 'text':
        return toTextBlocks([part]);
      case 'image':
        return toImageBlock(part, warnings);
      case 'document':
        return toDocumentBlock(part, warnings);
      case 'audio':
        warnings.push({ feature: 'audio', message: 'Anthropic accepts no audio input; an audio part was dropped.' });
        return [];
    }
  });
}

function toImageBlock(part: ImagePart, warnings: Warnings): ImageBlockParam[] {
  const { source } = part;
  let converted: ImageBlockParam['source'];
  const mediaType = IMAGE_TYPES.find((type) => source.kind === 'base64' && type === source.mediaType);
  if (source.kind === 'base64' && mediaType) converted = { type: 'base64', media_type: mediaType, data: source.data };
  else if (source.kind === 'url') converted = { type: 'url', url: source.url };
  else if (source.kind === 'file') converted = { type: 'file', file_id: source.fileId };
  else {
    const what = source.kind === 'base64' ? `of type '${source.mediaType}'` : `given as '${source.kind}'`;
    warnings.push({ feature: 'image', message: `An image ${what} cannot be sent to Anthropic; dropped.` });
    return [];
  }
  const block: ImageBlockParam = { type: 'image', source: converted };
  return [withCache(block, part.cache)];
}

function toDocumentBlock(part: DocumentPart, warnings: Warnings): DocumentBlockParam[] {
  const source = toDocumentSource(part);
  if (!source) {
    const mediaType = part.source.kind === 'base64' ? part.source.mediaType : part.source.kind;
    warnings.push({ feature: 'document', message: `A document of type '${mediaType}' cannot be sent to Anthropic; dropped.` });
    return [];
  }
  const block: DocumentBlockParam = { type: 'document', source };
  const title = part.title ?? part.filename;
  if (title !== undefined) block.title = title;
  if (part.context !== undefined) block.context = part.context;
  return [withCache(block, part.cache)];
}

/** Inline PDFs go as they are; inline plain text is decoded, as Anthropic takes text sources as text. */
function toDocumentSource({ source }: DocumentPart): DocumentBlockParam['source'] | undefined {
  switch (source.kind) {
    case 'base64':
      if (source.mediaType === 'application/pdf') return { type: 'base64', media_type: 'application/pdf', data: source.data };
      if (source.mediaType.startsWith('text/')) {
        return { type: 'text', media_type: 'text/plain', data: Buffer.from(source.data, 'base64').toString('utf8') };
      }
      return undefined;
    case 'text':
      return { type: 'text', media_type: 'text/plain', data: source.data };
    case 'url':
      return { type: 'url', url: source.url };
    case 'file':
      return { type: 'file', file_id: source.fileId };
  }
}

/** A lone text result goes as a string, the form every Anthropic example uses. */
export function toToolResultBlock(result: ToolResultPart, warnings: Warnings): ToolResultBlockParam {
  const block: ToolResultBlockParam = { type: 'tool_result', tool_use_id: result.toolCallId };
  const only = result.content[0];
  if (result.content.length === 1 && only?.type === 'text' && !only.cache) block.content = only.text;
  else if (result.content.length > 0) block.content = result.content.flatMap((part) => toToolResultContent(part, warnings));
  if (result.isError !== undefined) block.is_error = result.isError;
  return withCache(block, result.cache);
}

function toToolResultContent(part: ToolResultContent, warnings: Warnings): ToolResultBlock[] {
  if (part.type === 'text') return toTextBlocks([part]);
  if (part.type === 'image') return toImageBlock(part, warnings);
  return toDocumentBlock(part, warnings);
}

/** `path` names the call for the caller: the canonical message and part it came from. */
export function toToolUseBlock(part: ToolCallPart, path: string): ToolUseBlockParam {
  const input = parseToolArguments(part.arguments);
  if (!input) {
    throw GatewayError.invalidRequest(
      `The arguments of tool call '${part.id}' at '${path}' are not a JSON object; Anthropic needs one.`,
      path,
    );
  }
  return { type: 'tool_use', id: part.id, name: part.name, input };
}

function withCache<T extends { cache_control?: CacheControlEphemeral | null }>(block: T, hint: CacheHint | undefined): T {
  const cache = toCacheControl(hint);
  if (cache) block.cache_control = cache;
  return block;
}
