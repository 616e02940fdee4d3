/**
 * Gemini carries every kind of media the same way (`inlineData`/`fileData` with a MIME type);
 * the canonical model has one part type per kind. These helpers translate between the two.
 */

export type MediaKind = 'image' | 'document' | 'audio';

/** image/* → image; PDF and text/* → document; audio/* → audio; anything else (video…) has no canonical part. */
export function mediaKindOf(mimeType: string): MediaKind | undefined {
  const type = mimeType.toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type === 'application/pdf' || type.startsWith('text/')) return 'document';
  if (type.startsWith('audio/')) return 'audio';
  return undefined;
}

/** `audio/mpeg` and `audio/mp3` → `mp3`, `audio/x-wav` → `wav`, otherwise the subtype. */
export function audioFormatOf(mimeType: string): string {
  const subtype = (mimeType.split('/')[1] ?? '').toLowerCase().replace(/^x-/, '').split(';')[0] ?? '';
  if (subtype === 'mpeg') return 'mp3';
  if (subtype === 'wave') return 'wav';
  return subtype;
}

export function audioMimeTypeOf(format: string): string {
  return `audio/${format.toLowerCase()}`;
}

const EXTENSION_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  csv: 'text/csv',
  mp3: 'audio/mp3',
  wav: 'audio/wav',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
};

/** The media type a URL's file extension suggests (query and fragment ignored). */
export function guessMediaType(url: string): string | undefined {
  const path = url.split(/[?#]/)[0] ?? '';
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return undefined;
  return EXTENSION_TYPES[path.slice(dot + 1).toLowerCase()];
}
