/**
 * Test-only helpers: read fixtures, and write a ConverseStream fixture as the AWS event-stream
 * bytes Bedrock sends, framed and checksummed by `@smithy/eventstream-codec`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventStreamCodec } from '@smithy/eventstream-codec';

export function fixtureJson<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(join(__dirname, name), 'utf8')) as T;
}

/** One line of a `.frames.jsonl` fixture: an event, or an exception Bedrock sends mid-stream. */
export type FixtureFrame = { event: string; payload: Record<string, unknown> } | { exception: string; payload: Record<string, unknown> };

export function fixtureFrames(name: string): FixtureFrame[] {
  return readFileSync(join(__dirname, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as FixtureFrame);
}

const codec = new EventStreamCodec(
  (bytes) => Buffer.from(bytes).toString('utf8'),
  (text) => Buffer.from(text, 'utf8'),
);

/** The frame's bytes, headers as Bedrock sets them. */
export function encodeFrame(frame: FixtureFrame): Buffer {
  const headers: Record<string, string> =
    'event' in frame
      ? { ':event-type': frame.event, ':content-type': 'application/json', ':message-type': 'event' }
      : { ':exception-type': frame.exception, ':content-type': 'application/json', ':message-type': 'exception' };
  const entries = Object.entries(headers).map(([name, value]) => [name, { type: 'string' as const, value }]);
  return Buffer.from(codec.encode({ headers: Object.fromEntries(entries), body: Buffer.from(JSON.stringify(frame.payload), 'utf8') }));
}

/** The stream's bytes in uneven pieces (cycling through `sizes`), so frames split at every kind of offset. */
export async function* inPieces(frames: FixtureFrame[], sizes: number[] = [7, 1, 23, 3, 64]): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.concat(frames.map(encodeFrame));
  for (let offset = 0, i = 0; offset < bytes.length; offset += sizes[i % sizes.length]!, i++) {
    yield new Uint8Array(bytes.subarray(offset, offset + sizes[i % sizes.length]!));
  }
}

/** Fixes `Date.now()` so `created` times compare; returns the Unix seconds. */
export function freezeNow(seconds = 1730000000): number {
  jest.spyOn(Date, 'now').mockReturnValue(seconds * 1000);
  return seconds;
}

// Shared with the other codecs' fixtures.
export { serializeEvents, type SerializedEvent } from '../../../common/src/__fixtures__/serialized-events';
