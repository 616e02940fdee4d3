/**
 * Upstream SSE bytes → `{event, data}` with the data parsed, yielded as each event completes
 * (never buffering the whole stream). Framing is eventsource-parser's job; dispatching on the
 * event belongs to the stream decoder.
 */
import { GatewayError } from '@rosetta/canonical';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface AnthropicMessagesSSEEvent {
  event?: string;
  data: unknown;
}

export async function* parseAnthropicMessagesSSE(
  source: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<AnthropicMessagesSSEEvent> {
  const decoder = new TextDecoder();
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  for await (const piece of source) {
    parser.feed(typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true }));
    yield* takeEvents(pending, false);
  }
  // A last event without its blank line still counts once the connection closes. One cut off
  // mid-JSON is dropped: the stream decoder then reports the stream as cut, which is the cause.
  parser.feed(`${decoder.decode()}\n\n`);
  yield* takeEvents(pending, true);
}

function takeEvents(pending: EventSourceMessage[], dropMalformed: boolean): AnthropicMessagesSSEEvent[] {
  return pending
    .splice(0, pending.length)
    .filter((message) => message.data !== '')
    .flatMap((message) => {
      try {
        return [parseEvent(message)];
      } catch (error) {
        if (dropMalformed) return [];
        throw error;
      }
    });
}

function parseEvent(message: EventSourceMessage): AnthropicMessagesSSEEvent {
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    throw new GatewayError('upstream_error', 'Upstream service error: malformed stream event', { status: 502, retryable: true });
  }
  return message.event === undefined ? { data } : { event: message.event, data };
}
