/**
 * Canonical images and documents → Converse `image` / `document` blocks. Converse takes media as
 * bytes (or an S3 location, which no client sends): a base64 source or a `data:` URL goes; a web
 * URL or a provider's file id cannot, and is dropped with a warning, as the other encoders drop
 * what their upstream cannot fetch.
 */
import type { DocumentPart, ImagePart, MediaSource, TranslationWarning } from '@rosetta/canonical';
import { parseDataUrl, type InlineData, type JsonObject } from '@rosetta/protocols/common';

const IMAGE_FORMATS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };
const DOCUMENT_FORMATS: Readonly<Record<string, string>> = {
  'application/pdf': 'pdf', 'text/csv': 'csv', 'text/html': 'html', 'text/plain': 'txt', 'text/markdown': 'md',
  'application/msword': 'doc', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

/** The image block, or nothing (and a warning) when Converse cannot take it. */
export function toConverseImage(part: ImagePart, warnings: TranslationWarning[]): JsonObject | undefined {
  const inline = inlineData(part.source);
  const format = inline && IMAGE_FORMATS[inline.mediaType];
  if (!inline || !format) {
    warnings.push({ feature: 'image', message: `An image ${describe(part.source, inline)} cannot be sent to Bedrock Converse, which takes png, jpeg, gif or webp bytes; dropped.` });
    return undefined;
  }
  return { image: { format, source: { bytes: inline.data } } };
}

/** The document block, or nothing (and a warning) when Converse cannot take it. */
export function toConverseDocument(part: DocumentPart, warnings: TranslationWarning[]): JsonObject | undefined {
  const inline = inlineData(part.source);
  const format = inline && (DOCUMENT_FORMATS[inline.mediaType] ?? (inline.mediaType.startsWith('text/') ? 'txt' : undefined));
  if (!inline || !format) {
    warnings.push({ feature: 'document', message: `A document ${describe(part.source, inline)} cannot be sent to Bedrock Converse, which takes pdf, csv, doc, docx, xls, xlsx, html, txt or md bytes; dropped.` });
    return undefined;
  }
  return { document: { format, name: documentName(part.title ?? part.filename), source: { bytes: inline.data } } };
}

/** The bytes (base64) and media type of a source Converse can be sent, if it is one. */
function inlineData(source: MediaSource): InlineData | undefined {
  switch (source.kind) {
    case 'base64':
      return { mediaType: source.mediaType, data: source.data };
    case 'text':
      return { mediaType: source.mediaType, data: Buffer.from(source.data, 'utf8').toString('base64') };
    case 'url':
      return parseDataUrl(source.url);
    case 'file':
      return undefined;
  }
}

function describe(source: MediaSource, inline: InlineData | undefined): string {
  if (inline) return `of type '${inline.mediaType}'`;
  return source.kind === 'file' ? 'given as a file id' : 'given as a URL';
}

/**
 * Bedrock allows letters, digits, single spaces, hyphens, parentheses and brackets in a
 * document's name (and refuses the request otherwise); anything else becomes a space.
 */
function documentName(title: string | undefined): string {
  const name = (title ?? 'document').replace(/[^A-Za-z0-9\s\-()[\]]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 200);
  return name === '' ? 'document' : name;
}
