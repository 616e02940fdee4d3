/**
 * Upstream SSE bytes (`?alt=sse`) → parsed chunk JSON, yielded as each event completes (never
 * buffering the whole stream). Framing, CRLF included, is the shared `parseSseFrames`. Gemini has
 * no terminator event: the stream ends when the connection closes; a last chunk cut off mid-JSON
 * is dropped and the stream decoder reports the stream as cut.
 */
import { parseFrameData, parseSseFrames } from '@rosetta/protocols/common';

export async function* parseGeminiSSE(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<unknown> {
  for await (const frame of parseSseFrames(source)) {
    if (frame.data.trim() === '') continue;
    const data = parseFrameData(frame);
    if (data !== undefined) yield data;
  }
}
