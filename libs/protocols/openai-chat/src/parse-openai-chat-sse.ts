/**
 * Upstream SSE bytes → parsed chunk JSON, yielded as each event completes (never buffering the
 * whole stream). Framing is the shared `SseFramer`; this only parses each `data` payload and
 * stops at `[DONE]`.
 */
import { parseFrameData, SseFramer, type SseFrame } from '@rosetta/protocols/common';

const DONE = Symbol('[DONE]');

export async function* parseOpenAIChatSSE(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<unknown> {
  const framer = new SseFramer();
  for await (const piece of source) {
    for (const frame of framer.feed(piece)) {
      const payload = payloadOf(frame);
      if (payload === DONE) return;
      if (payload !== undefined) yield payload;
    }
  }
  // A last event without its blank line still counts once the connection closes. One cut off
  // mid-JSON is dropped: the stream decoder then reports the stream as cut, which is the cause.
  for (const frame of framer.finish()) {
    const payload = payloadOf(frame);
    if (payload === DONE) return;
    if (payload !== undefined) yield payload;
  }
}

/** The frame's parsed payload; `[DONE]` becomes the DONE marker, a payload the closing connection cut short undefined. */
function payloadOf(frame: SseFrame): unknown {
  if (frame.data.trim() === '[DONE]') return DONE;
  const payload = parseFrameData(frame);
  // openai-node treats a named `error` event like an `{error}` chunk; so does the decoder.
  if (payload !== undefined && frame.event === 'error' && !(typeof payload === 'object' && payload !== null && 'error' in payload)) {
    return { error: payload };
  }
  return payload;
}
