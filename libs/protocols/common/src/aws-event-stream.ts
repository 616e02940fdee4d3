/**
 * AWS event-stream framing (`application/vnd.amazon.eventstream`), as Bedrock's ConverseStream
 * and invoke-with-response-stream send it: binary frames of a 4-byte total length, headers, a
 * payload and CRC32 checksums. Frames are cut out of the byte stream as they complete (a frame
 * may arrive split anywhere, or several in one chunk) and decoded, checksums verified, by
 * `@smithy/eventstream-codec`; nothing waits for the whole stream.
 */
import { EventStreamCodec } from '@smithy/eventstream-codec';

/** One decoded frame: an `event` with its type, or an `exception` / `error` the service sent mid-stream. */
export interface AwsEventStreamMessage {
  /** `event`, `exception` or `error` (`:message-type`). */
  messageType: string;
  /** `:event-type`, on events (`messageStart`, `contentBlockDelta`, `chunk`, …). */
  eventType?: string;
  /** `:exception-type`, on exceptions (`throttlingException`, `modelStreamErrorException`, …). */
  exceptionType?: string;
  /** `:error-code`, on errors. */
  errorCode?: string;
  /** The payload parsed as JSON, or its text when it is not JSON. */
  payload: unknown;
}

/** The prelude: total length, headers length, prelude CRC. */
const PRELUDE_BYTES = 12;
/** A frame past this is refused, never allocated: Bedrock's frames are a few kilobytes. */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;
/** The smallest frame: prelude and message CRC, no headers, no payload. */
const MIN_FRAME_BYTES = 16;

const codec = new EventStreamCodec(
  (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
  (text) => Buffer.from(text, 'utf8'),
);

export async function* parseAwsEventStream(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<AwsEventStreamMessage> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const piece of source) {
    const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    pending = pending.length === 0 ? bytes : Buffer.concat([pending, bytes]);
    while (pending.length >= PRELUDE_BYTES) {
      const total = pending.readUInt32BE(0);
      if (total < MIN_FRAME_BYTES || total > MAX_FRAME_BYTES) {
        yield malformed(`an event-stream frame of ${total} bytes is not valid`);
        return;
      }
      if (pending.length < total) break;
      const message = decodeFrame(pending.subarray(0, total));
      yield message;
      if (message.errorCode === MALFORMED) return;
      pending = pending.subarray(total);
    }
  }
  // Bytes left over are a frame cut short: the decoder then reports the stream as cut.
}

/** The `errorCode` of a frame that could not be read (too large, too small, a failed checksum): the stream ends there. */
export const MALFORMED = 'MalformedEventStream';

function malformed(message: string): AwsEventStreamMessage {
  return { messageType: 'error', errorCode: MALFORMED, payload: { message } };
}

function decodeFrame(frame: Buffer): AwsEventStreamMessage {
  let message: ReturnType<EventStreamCodec['decode']>;
  try {
    message = codec.decode(frame);
  } catch (error) {
    return malformed(`an event-stream frame could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const header = (name: string): string | undefined => {
    const value = message.headers[name];
    return value?.type === 'string' ? value.value : undefined;
  };
  const text = Buffer.from(message.body.buffer, message.body.byteOffset, message.body.byteLength).toString('utf8');
  let payload: unknown = text;
  try {
    payload = text === '' ? {} : (JSON.parse(text) as unknown);
  } catch {
    // Not JSON: kept as text, for an error message.
  }
  return {
    messageType: header(':message-type') ?? 'event',
    ...optional('eventType', header(':event-type')),
    ...optional('exceptionType', header(':exception-type')),
    ...optional('errorCode', header(':error-code')),
    payload,
  };
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
