/**
 * Upstream SSE bytes (`?alt=sse`) → parsed chunk JSON, yielded as each event completes (never
 * buffering the whole stream). Framing, CRLF included, is eventsource-parser's job. Gemini has
 * no terminator event: the stream ends when the connection closes.
 */
import { GatewayError } from '@rosetta/canonical';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export async function* parseGeminiSSE(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  for await (const piece of source) {
    parser.feed(typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true }));
    yield* takePayloads(pending, false);
  }
  // A last event without its blank line still counts once the connection closes. One cut off
  // mid-JSON is dropped: the stream decoder then reports the stream as cut, which is the cause.
  parser.feed(`${decoder.decode()}\n\n`);
  yield* takePayloads(pending, true);
}

function takePayloads(pending: EventSourceMessage[], dropMalformed: boolean): unknown[] {
  return pending
    .splice(0, pending.length)
    .filter((event) => event.data.trim() !== '')
    .flatMap((event) => {
      try {
        return [JSON.parse(event.data) as unknown];
      } catch {
        if (dropMalformed) return [];
        throw new GatewayError('upstream_error', 'Upstream service error: malformed stream event', { status: 502, retryable: true });
      }
    });
}
