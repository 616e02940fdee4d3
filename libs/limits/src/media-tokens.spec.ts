import type { MediaSource } from '@rosetta/canonical';
import { audioTokens, documentTokens, imageSize, imageTokens, PDF_PAGE_TOKENS, UNKNOWN_DOCUMENT_TOKENS, UNKNOWN_IMAGE_TOKENS } from './media-tokens';
import { estimatePromptTokens } from './token-estimator';

function png(width: number, height: number): Buffer {
  const b = Buffer.alloc(33);
  b.writeUInt32BE(0x89504e47, 0);
  b.writeUInt32BE(0x0d0a1a0a, 4);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b;
}

/** A JPEG whose frame header sits behind an EXIF segment of `exifBytes`. */
function jpeg(width: number, height: number, exifBytes = 1_000): Buffer {
  const app1 = Buffer.alloc(4 + exifBytes);
  app1.writeUInt16BE(0xffe1, 0);
  app1.writeUInt16BE(2 + exifBytes, 2);
  const sof = Buffer.alloc(19);
  sof.writeUInt16BE(0xffc0, 0);
  sof.writeUInt16BE(17, 2);
  sof[4] = 8;
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app1, sof]);
}

function gif(width: number, height: number): Buffer {
  const b = Buffer.alloc(13);
  b.write('GIF89a', 0, 'latin1');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return b;
}

function webpExtended(width: number, height: number): Buffer {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.write('WEBP', 8, 'latin1');
  b.write('VP8X', 12, 'latin1');
  b.writeUIntLE(width - 1, 24, 3);
  b.writeUIntLE(height - 1, 27, 3);
  return b;
}

const inline = (bytes: Buffer, mediaType: string): MediaSource => ({ kind: 'base64', mediaType, data: bytes.toString('base64') });

/** A PDF of `pages` page objects, padded to about `size` bytes. */
function pdf(pages: number, size = 0): Buffer {
  const objects = Array.from({ length: pages }, (_, i) => `${i + 3} 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\n`).join('');
  const body = `%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Count ${pages} >>\nendobj\n${objects}`;
  return Buffer.concat([Buffer.from(body, 'latin1'), Buffer.alloc(Math.max(0, size - body.length), 0x20), Buffer.from('%%EOF\n')]);
}

describe('media token estimates (issue 26)', () => {
  it('reads dimensions from PNG, JPEG (behind metadata), GIF and WebP headers', () => {
    expect(imageSize(png(1024, 768))).toEqual({ width: 1024, height: 768 });
    expect(imageSize(jpeg(4032, 3024, 20_000))).toEqual({ width: 4032, height: 3024 });
    expect(imageSize(gif(32, 16))).toEqual({ width: 32, height: 16 });
    expect(imageSize(webpExtended(800, 600))).toEqual({ width: 800, height: 600 });
    expect(imageSize(Buffer.from('not an image'))).toBeUndefined();
  });

  it('prices an image by its size as providers count it, bounded whatever its header claims', () => {
    const small = imageTokens(inline(png(64, 64), 'image/png'));
    const photo = imageTokens(inline(jpeg(4032, 3024), 'image/jpeg'));
    const claimed = imageTokens(inline(png(100_000, 100_000), 'image/png'));
    expect(small).toBe(255); // one OpenAI tile
    // OpenAI: 1024×768 in 512-pixel tiles, 6 × 170 + 85 = 1,105; Anthropic: scaled to 1.15 MP, / 750 = 1,534.
    expect(photo).toBe(1_534);
    expect(claimed).toBeLessThanOrEqual(1_600);
    expect(imageTokens(inline(png(64, 64), 'image/png'), 'low')).toBe(85);
    expect(imageTokens({ kind: 'url', url: 'https://example.com/cat.png' })).toBe(UNKNOWN_IMAGE_TOKENS);
  });

  it('prices a PDF by its pages: a 4 MB document holds far more than a 1.6 KB one', () => {
    const tiny = documentTokens(inline(pdf(1, 1_600), 'application/pdf'));
    const large = documentTokens(inline(pdf(80, 4_000_000), 'application/pdf'));
    expect(tiny).toBe(PDF_PAGE_TOKENS);
    expect(large).toBe(80 * PDF_PAGE_TOKENS);
  });

  it('believes a page count only as far as the file could hold it, and sizes a PDF whose pages it cannot see', () => {
    const lying = Buffer.from('%PDF-1.7\n<< /Type /Pages /Count 999999999 >>\n%%EOF', 'latin1');
    expect(documentTokens(inline(lying, 'application/pdf'))).toBe(PDF_PAGE_TOKENS);
    const opaque = Buffer.concat([Buffer.from('%PDF-1.7\n', 'latin1'), Buffer.alloc(500_000, 0x41)]);
    expect(documentTokens(inline(opaque, 'application/pdf'))).toBe(11 * PDF_PAGE_TOKENS);
  });

  it('prices other inline documents at four bytes a token, and unseen ones flat', () => {
    expect(documentTokens(inline(Buffer.alloc(40_000, 0x61), 'application/msword'))).toBe(10_000);
    expect(documentTokens({ kind: 'url', url: 'https://example.com/a.pdf', mediaType: 'application/pdf' })).toBe(UNKNOWN_DOCUMENT_TOKENS);
  });

  it('prices audio by its length', () => {
    const tenSecondsMp3 = Buffer.alloc(160_000).toString('base64');
    expect(audioTokens(tenSecondsMp3, 'mp3')).toBe(320);
    expect(audioTokens(Buffer.alloc(320_000).toString('base64'), 'wav')).toBe(320);
  });

  it('reaches the prompt estimate that holds rate limits and budgets', () => {
    const withPdf = (bytes: Buffer) =>
      estimatePromptTokens({ messages: [{ role: 'user', content: [{ type: 'document', source: inline(bytes, 'application/pdf') }, { type: 'text', text: 'Summarise.' }] }] });
    expect(withPdf(pdf(40, 2_000_000)) - withPdf(pdf(1, 1_600))).toBe(39 * PDF_PAGE_TOKENS);
  });
});
