/**
 * Upstream SSE bytes → `{event, data}` with the data parsed, yielded as each event completes
 * (never buffering the whole stream). Framing is the shared `parseSseFrames`; dispatching on the
 * event belongs to the stream decoder. A last event cut off mid-JSON is dropped: the stream
 * decoder then reports the stream as cut, which is the cause.
 */
import { parseFrameData, parseSseFrames } from '@rosetta/protocols/common';

export interface AnthropicMessagesSSEEvent {
  event?: string;
  data: unknown;
}

export async function* parseAnthropicMessagesSSE(
  source: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<AnthropicMessagesSSEEvent> {
  for await (const frame of parseSseFrames(source)) {
    const data = parseFrameData(frame);
    if (data === undefined) continue;
    yield frame.event === undefined ? { data } : { event: frame.event, data };
  }
}
