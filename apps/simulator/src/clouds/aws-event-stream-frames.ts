import { EventStreamCodec } from '@smithy/eventstream-codec';

/**
 * AWS event-stream frames (`application/vnd.amazon.eventstream`) as Bedrock writes them, encoded
 * with checksums by `@smithy/eventstream-codec`. Bedrock pads each JSON payload with a `p` field of
 * varying length (against traffic analysis); so does the simulator, so readers prove they ignore it.
 */
const codec = new EventStreamCodec(
  (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
  (text) => Buffer.from(text, 'utf8'),
);

const PADDING = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
let padded = 0;

function padding(): string {
  padded = (padded + 7) % PADDING.length;
  return PADDING.slice(0, padded + 1);
}

function frame(headers: Record<string, string>, body: string): Uint8Array {
  return codec.encode({
    headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { type: 'string' as const, value }])),
    body: Buffer.from(body, 'utf8'),
  });
}

/** One event, its payload JSON with Bedrock's padding. */
export function eventFrame(eventType: string, payload: Record<string, unknown>): Uint8Array {
  return frame({ ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' }, JSON.stringify({ ...payload, p: padding() }));
}

/** An event whose payload is not JSON (the `garbage` fault). */
export function rawEventFrame(eventType: string, text: string): Uint8Array {
  return frame({ ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' }, text);
}

/** An exception sent mid-stream (`throttlingException`, `modelStreamErrorException`, …); the stream ends after it. */
export function exceptionFrame(exceptionType: string, message: string): Uint8Array {
  return frame({ ':exception-type': exceptionType, ':content-type': 'application/json', ':message-type': 'exception' }, JSON.stringify({ message }));
}

export const EVENT_STREAM_HEADERS = { 'content-type': 'application/vnd.amazon.eventstream', 'cache-control': 'no-cache' };
