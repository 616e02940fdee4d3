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

/**
 * One chunk's JSON text as a `?alt=sse` client reads it. @google/genai raises an in-stream error
 * only when a network read is a bare error JSON, so an error chunk goes out unframed (Google's own
 * behaviour); everything else as a `data:` event.
 */
export function geminiSseChunk(json: string, error: boolean): string {
  return error ? `${json}\n` : `data: ${json}\r\n\r\n`;
}

export class GeminiJsonArrayWriter {
  private written = 0;

  open(): string {
    return '[';
  }

  item(chunk: unknown): string {
    return this.itemText(JSON.stringify(chunk));
  }

  /** An element already serialised. */
  itemText(json: string): string {
    return this.written++ === 0 ? json : `,\r\n${json}`;
  }

  close(): string {
    return ']';
  }
}
