/**
 * Upstream SSE bytes → parsed chunk JSON, yielded as each event completes (never buffering the
 * whole stream). Framing is eventsource-parser's job; this only decodes text, parses each `data`
 * payload and stops at `[DONE]`.
 */
import { GatewayError } from '@rosetta/canonical';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

const DONE = Symbol('[DONE]');

export async function* parseOpenAIChatSSE(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  for await (const piece of source) {
    parser.feed(typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true }));
    for (const payload of takePayloads(pending, false)) {
      if (payload === DONE) return;
      yield payload;
    }
  }
  // A last event without its blank line still counts once the connection closes. One cut off
  // mid-JSON is dropped: the stream decoder then reports the stream as cut, which is the cause.
  parser.feed(`${decoder.decode()}\n\n`);
  for (const payload of takePayloads(pending, true)) {
    if (payload === DONE) return;
    yield payload;
  }
}

/** Empties the queue into parsed payloads; `[DONE]` becomes the DONE marker. */
function takePayloads(pending: EventSourceMessage[], dropMalformed: boolean): unknown[] {
  return pending
    .splice(0, pending.length)
    .filter((event) => event.data !== '')
    .flatMap((event) => {
      try {
        return [parseEvent(event)];
      } catch (error) {
        if (dropMalformed) return [];
        throw error;
      }
    });
}

function parseEvent(event: EventSourceMessage): unknown {
  if (event.data.trim() === '[DONE]') return DONE;
  let payload: unknown;
  try {
    payload = JSON.parse(event.data);
  } catch {
    throw new GatewayError('upstream_error', 'Upstream service error: malformed stream event', { status: 502, retryable: true });
  }
  // openai-node treats a named `error` event like an `{error}` chunk; so does the decoder.
  if (event.event === 'error' && !(typeof payload === 'object' && payload !== null && 'error' in payload)) {
    return { error: payload };
  }
  return payload;
}
