/**
 * Prompt tokens of inline media, from what its bytes say (issue 26): an image by its dimensions,
 * as providers count them; a PDF by its pages; audio by its length. A flat guess let a 4 MB PDF hold
 * what a 1.6 KB one did. Media the gateway cannot see (a URL, a file id) keeps a flat estimate.
 *
 * Every reading is bounded and linear: an image's header is read from at most `IMAGE_HEAD_BYTES`;
 * a PDF is decoded once and scanned once; no number read from the bytes is trusted past what the
 * bytes could hold (a header claiming a gigapixel image is scaled as the provider scales it).
 */
import type { MediaSource } from '@rosetta/canonical';

/** An image, document or clip the gateway cannot measure. */
export const UNKNOWN_IMAGE_TOKENS = 1_000;
export const UNKNOWN_DOCUMENT_TOKENS = 1_500;
export const UNKNOWN_AUDIO_TOKENS = 1_000;

/** Tokens a PDF page costs at most: Anthropic counts 1,500–3,000 (its text and its image). */
export const PDF_PAGE_TOKENS = 3_000;
/** Bytes per page assumed for a PDF whose page objects are compressed out of sight. */
const PDF_BYTES_PER_PAGE = 50_000;
/** The least bytes a page object takes: a `/Count` larger than the file could hold is not believed. */
const PDF_MIN_BYTES_PER_PAGE = 100;
/** Enough of an image to reach a JPEG's frame header behind its metadata. */
const IMAGE_HEAD_BYTES = 64 * 1024;
/** Audio: 32 tokens a second (Gemini), at 16 KB a second (128 kbit/s) — WAV at 32 KB a second. */
const AUDIO_TOKENS_PER_SECOND = 32;

/** Decoded length of base64 text, without decoding it. */
export function base64Bytes(data: string): number {
  let padding = 0;
  if (data.endsWith('==')) padding = 2;
  else if (data.endsWith('=')) padding = 1;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/**
 * An image's tokens: the most of OpenAI's high-detail tiles (fit in 2048², shortest side 768,
 * 170 a 512-pixel tile plus 85) and Anthropic's pixels / 750 (long edge 1568, about 1,600 at most);
 * low detail is OpenAI's flat 85. Unknown dimensions: `UNKNOWN_IMAGE_TOKENS`.
 */
export function imageTokens(source: MediaSource, detail?: string): number {
  if (detail === 'low') return 85;
  if (source.kind !== 'base64') return UNKNOWN_IMAGE_TOKENS;
  const size = imageSize(Buffer.from(source.data.slice(0, Math.ceil(IMAGE_HEAD_BYTES / 3) * 4), 'base64'));
  if (!size) return UNKNOWN_IMAGE_TOKENS;
  return Math.max(openAITileTokens(size.width, size.height), anthropicImageTokens(size.width, size.height));
}

function openAITileTokens(width: number, height: number): number {
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shortest = Math.min(1, 768 / Math.min(w, h));
  w *= shortest;
  h *= shortest;
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

function anthropicImageTokens(width: number, height: number): number {
  const fit = Math.min(1, 1568 / Math.max(width, height), Math.sqrt(1_150_000 / (width * height)));
  return Math.ceil((width * fit * (height * fit)) / 750);
}

/** Width and height from a PNG, GIF, WebP or JPEG header; undefined for anything else. */
export function imageSize(bytes: Buffer): { width: number; height: number } | undefined {
  const size = pngSize(bytes) ?? gifSize(bytes) ?? webpSize(bytes) ?? jpegSize(bytes);
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}

function pngSize(b: Buffer): { width: number; height: number } | undefined {
  if (b.length < 24 || b.readUInt32BE(0) !== 0x89504e47 || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function gifSize(b: Buffer): { width: number; height: number } | undefined {
  if (b.length < 10 || b.toString('latin1', 0, 3) !== 'GIF') return undefined;
  return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

function webpSize(b: Buffer): { width: number; height: number } | undefined {
  if (b.length < 30 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WEBP') return undefined;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return undefined;
}

/** The first start-of-frame marker's dimensions, walking the segments by their lengths. */
function jpegSize(b: Buffer): { width: number; height: number } | undefined {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 9 <= b.length) {
    if (b[offset] !== 0xff) return undefined;
    const marker = b[offset + 1]!;
    if (marker === 0xff) {
      offset++;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: b.readUInt16BE(offset + 5), width: b.readUInt16BE(offset + 7) };
    offset += 2 + b.readUInt16BE(offset + 2);
  }
  return undefined;
}

/**
 * A document's tokens: a PDF by its pages (its page objects, or its page tree's `/Count` within
 * what the file could hold, or its size when both are compressed away); other inline bytes at four
 * a token. Text sources are tokenised by the caller.
 */
export function documentTokens(source: MediaSource): number {
  if (source.kind !== 'base64') return UNKNOWN_DOCUMENT_TOKENS;
  const bytes = base64Bytes(source.data);
  if (source.mediaType !== 'application/pdf') return Math.max(UNKNOWN_DOCUMENT_TOKENS, Math.ceil(bytes / 4));
  return pdfPages(Buffer.from(source.data, 'base64')) * PDF_PAGE_TOKENS;
}

/** Pages of a PDF, read without parsing it: one linear scan of its bytes. */
export function pdfPages(pdf: Buffer): number {
  const text = pdf.toString('latin1');
  let objects = 0;
  for (const _match of text.matchAll(/\/Type\s*\/Page(?![a-zA-Z])/g)) objects++;
  let counted = 0;
  for (const match of text.matchAll(/\/Count\s+(\d{1,9})/g)) counted = Math.max(counted, Number(match[1]));
  const possible = Math.max(1, Math.floor(pdf.length / PDF_MIN_BYTES_PER_PAGE));
  const pages = Math.max(objects, Math.min(counted, possible));
  return pages > 0 ? pages : Math.max(1, Math.ceil(pdf.length / PDF_BYTES_PER_PAGE));
}

/** A clip's tokens by its length: its bytes at 16 KB a second (32 KB for WAV), 32 tokens a second. */
export function audioTokens(data: string, format: string): number {
  const bytes = base64Bytes(data);
  if (bytes === 0) return UNKNOWN_AUDIO_TOKENS;
  const bytesPerSecond = format.toLowerCase() === 'wav' ? 32_000 : 16_000;
  return Math.max(AUDIO_TOKENS_PER_SECOND, Math.ceil((bytes / bytesPerSecond) * AUDIO_TOKENS_PER_SECOND));
}
