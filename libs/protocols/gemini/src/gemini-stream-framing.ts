/**
 * How dialect-C streams are written. With `?alt=sse` (what the SDKs ask for) each chunk is one
 * `data:` line ended by a CRLF blank line, as Google sends it; there are no event names and no
 * terminator (the response simply ends). Without `alt`, the body is one JSON array written an
 * element at a time.
 */

/** JSON.stringify never emits a raw newline, so one chunk is always one `data:` line. */
export function formatGeminiSSE(chunk: unknown): string {
  return `data: ${JSON.stringify(chunk)}\r\n\r\n`;
}

export class GeminiJsonArrayWriter {
  private written = 0;

  open(): string {
    return '[';
  }

  item(chunk: unknown): string {
    const json = JSON.stringify(chunk);
    return this.written++ === 0 ? json : `,\r\n${json}`;
  }

  close(): string {
    return ']';
  }
}
