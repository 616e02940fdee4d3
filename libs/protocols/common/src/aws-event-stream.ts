/**
 * AWS event-stream framing (`application/vnd.amazon.eventstream`), as Bedrock's ConverseStream
 * and invoke-with-response-stream send it: binary frames of a 12-byte prelude (total length,
 * headers length, prelude CRC32), headers, a payload and a message CRC32. Frames are cut out of
 * the byte stream as they complete (a frame may arrive split anywhere, or several in one chunk)
 * and decoded, checksums verified, by `@smithy/eventstream-codec`; nothing waits for the whole
 * stream.
 *
 * A frame that cannot be read ends the stream with an `error` message rather than an exception
 * thrown through the caller's loop, so a codec reports it the way it reports Bedrock's own
 * mid-stream errors. The prelude is checked as soon as its 12 bytes are in: a corrupt length is
 * reported at once, never waited for or allocated.
 */
import { crc32 } from 'node:zlib';
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

const PRELUDE_BYTES = 12;
/** A frame past this is refused, never allocated: Bedrock's frames are a few kilobytes. */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;
/** The smallest frame: prelude and message CRC, no headers, no payload. */
const MIN_FRAME_BYTES = 16;
/** The `errorCode` of a frame that could not be read; the stream ends with it. */
const MALFORMED = 'MalformedEventStream';

// Node's Buffer does what @smithy/util-utf8 would: that package is no dependency of ours, only a
// transitive one at whatever version was hoisted.
const codec = new EventStreamCodec(
  (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
  (text) => Buffer.from(text, 'utf8'),
);

export async function* parseAwsEventStream(source: AsyncIterable<Uint8Array | string>): AsyncIterable<AwsEventStreamMessage> {
  const pending = new PendingBytes();
  for await (const piece of source) {
    pending.push(typeof piece === 'string' ? Buffer.from(piece, 'utf8') : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
    while (pending.length >= PRELUDE_BYTES) {
      const total = frameLength(pending.peek(PRELUDE_BYTES));
      if (typeof total === 'string') {
        yield malformed(total);
        return;
      }
      if (pending.length < total) break;
      const message = decodeFrame(pending.take(total));
      yield message;
      if (message.errorCode === MALFORMED) return;
    }
  }
  if (pending.length > 0) yield malformed(`the stream ended inside a frame (${pending.length} bytes left over)`);
}

/** The frame's total length from a sound prelude, or why the prelude is not one. */
function frameLength(prelude: Buffer): number | string {
  const total = prelude.readUInt32BE(0);
  const headers = prelude.readUInt32BE(4);
  if (crc32(prelude.subarray(0, 8)) !== prelude.readUInt32BE(8)) return 'an event-stream prelude failed its checksum';
  if (total < MIN_FRAME_BYTES || total > MAX_FRAME_BYTES) return `an event-stream frame of ${total} bytes is not valid`;
  if (headers > total - MIN_FRAME_BYTES) return `an event-stream frame of ${total} bytes cannot hold ${headers} bytes of headers`;
  return total;
}

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

/**
 * Bytes received and not yet cut into frames, kept as the pieces they came in: pieces are joined
 * only when a frame spans them, once per frame, so a large frame in many small pieces costs one
 * copy rather than one per piece.
 */
class PendingBytes {
  private pieces: Buffer[] = [];
  length = 0;

  push(piece: Buffer): void {
    if (piece.length === 0) return;
    this.pieces.push(piece);
    this.length += piece.length;
  }

  /** The first `n` bytes (`n` ≤ `length`). */
  peek(n: number): Buffer {
    const first = this.pieces[0]!;
    if (first.length >= n) return first.subarray(0, n);
    const joined = Buffer.concat(this.pieces, this.length);
    this.pieces = [joined];
    return joined.subarray(0, n);
  }

  /** The first `n` bytes (`n` ≤ `length`), removed. */
  take(n: number): Buffer {
    const bytes = this.peek(n);
    const rest = this.pieces[0]!.subarray(n);
    if (rest.length > 0) this.pieces[0] = rest;
    else this.pieces.shift();
    this.length -= n;
    return bytes;
  }
}
