/** `data:<media type>;base64,<data>` URLs, the form OpenAI uses for inline images and files. */
const DATA_URL = /^data:([^;,]+)((?:;[^;,]+)*);base64,(.*)$/s;

export interface InlineData {
  mediaType: string;
  data: string;
}

/** The media type and base64 payload of a base64 data URL; undefined for anything else. */
export function parseDataUrl(url: string): InlineData | undefined {
  const match = DATA_URL.exec(url);
  if (!match) return undefined;
  const [, mediaType, , data] = match;
  if (mediaType === undefined || data === undefined) return undefined;
  return { mediaType, data };
}

export function toDataUrl({ mediaType, data }: InlineData): string {
  return `data:${mediaType};base64,${data}`;
}
