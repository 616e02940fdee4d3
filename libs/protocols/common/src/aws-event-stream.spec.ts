import { crc32 } from 'node:zlib';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { parseAwsEventStream, type AwsEventStreamMessage } from './aws-event-stream';

const codec = new EventStreamCodec(
  (bytes) => Buffer.from(bytes).toString('utf8'),
  (text) => Buffer.from(text, 'utf8'),
);

function frame(headers: Record<string, string>, body: string): Buffer {
  const entries = Object.entries(headers).map(([name, value]) => [name, { type: 'string' as const, value }]);
  return Buffer.from(codec.encode({ headers: Object.fromEntries(entries), body: Buffer.from(body, 'utf8') }));
}

const event = (eventType: string, payload: unknown): Buffer =>
  frame({ ':message-type': 'event', ':event-type': eventType, ':content-type': 'application/json' }, JSON.stringify(payload));

/** `bytes` in pieces of the given sizes, cycling, so frames split at every kind of offset. */
async function* inPieces(bytes: Buffer, sizes: number[]): AsyncGenerator<Uint8Array> {
  for (let offset = 0, i = 0; offset < bytes.length; offset += sizes[i % sizes.length]!, i++) {
    yield new Uint8Array(bytes.subarray(offset, offset + sizes[i % sizes.length]!));
  }
}

/** Yields `pieces`, then fails if the parser asks for more: it must have given up by then. */
async function* thenNothingMore(...pieces: Buffer[]): AsyncGenerator<Uint8Array> {
  for (const piece of pieces) yield piece;
  throw new Error('the parser read past a frame it should have refused');
}

async function parse(source: AsyncIterable<Uint8Array>): Promise<AwsEventStreamMessage[]> {
  const out: AwsEventStreamMessage[] = [];
  for await (const message of parseAwsEventStream(source)) out.push(message);
  return out;
}

/** A prelude with a sound checksum claiming `total` bytes. */
function prelude(total: number, headers = 0): Buffer {
  const bytes = Buffer.alloc(12);
  bytes.writeUInt32BE(total, 0);
  bytes.writeUInt32BE(headers, 4);
  bytes.writeUInt32BE(crc32(bytes.subarray(0, 8)), 8);
  return bytes;
}

const malformed = (message: string): AwsEventStreamMessage =>
  ({ messageType: 'error', errorCode: 'MalformedEventStream', payload: { message } }) as AwsEventStreamMessage;

describe('parseAwsEventStream', () => {
  const stream = Buffer.concat([
    event('messageStart', { role: 'assistant', p: 'abc' }),
    event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Héllo ✓' } }),
    frame({ ':message-type': 'exception', ':exception-type': 'throttlingException', ':content-type': 'application/json' }, '{"message":"Too many requests"}'),
  ]);
  const expected: AwsEventStreamMessage[] = [
    { messageType: 'event', eventType: 'messageStart', payload: { role: 'assistant', p: 'abc' } },
    { messageType: 'event', eventType: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: 'Héllo ✓' } } },
    { messageType: 'exception', exceptionType: 'throttlingException', payload: { message: 'Too many requests' } },
  ];

  it.each([
    ['whole', [stream.length]],
    ['byte by byte', [1]],
    ['in uneven pieces that split preludes, headers, payloads and checksums', [5, 13, 2, 29, 7]],
  ])('reads frames that arrive %s', async (_how, sizes) => {
    expect(await parse(inPieces(stream, sizes))).toEqual(expected);
  });

  it('reads error frames, payloads that are not JSON, and empty payloads', async () => {
    const source = Buffer.concat([
      frame({ ':message-type': 'error', ':error-code': 'InternalFailure' }, 'upstream broke'),
      frame({ ':message-type': 'event', ':event-type': 'ping' }, ''),
    ]);
    expect(await parse(inPieces(source, [9]))).toEqual([
      { messageType: 'error', errorCode: 'InternalFailure', payload: 'upstream broke' },
      { messageType: 'event', eventType: 'ping', payload: {} },
    ]);
  });

  it('ends with an error at a frame whose message checksum fails, and reads nothing after it', async () => {
    const corrupt = event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'abc' } });
    corrupt.writeUInt8(corrupt.readUInt8(corrupt.length - 10) ^ 0x01, corrupt.length - 10);
    const messages = await parse(inPieces(Buffer.concat([event('messageStart', {}), corrupt, event('messageStop', {})]), [11]));
    expect(messages).toEqual([
      { messageType: 'event', eventType: 'messageStart', payload: {} },
      { messageType: 'error', errorCode: 'MalformedEventStream', payload: { message: expect.stringMatching(/^an event-stream frame could not be read: .*checksum/i) } },
    ]);
  });

  it('refuses a prelude whose checksum fails as soon as it arrives, without waiting for the length it claims', async () => {
    const corrupt = prelude(10 * 1024 * 1024);
    corrupt.writeUInt8(corrupt.readUInt8(11) ^ 0xff, 11);
    expect(await parse(thenNothingMore(corrupt))).toEqual([malformed('an event-stream prelude failed its checksum')]);
  });

  it('refuses a frame claiming more than 16 MiB, or less than a frame can be, without allocating it', async () => {
    expect(await parse(thenNothingMore(prelude(17 * 1024 * 1024)))).toEqual([malformed(`an event-stream frame of ${17 * 1024 * 1024} bytes is not valid`)]);
    expect(await parse(thenNothingMore(prelude(15)))).toEqual([malformed('an event-stream frame of 15 bytes is not valid')]);
    expect(await parse(thenNothingMore(prelude(20, 8)))).toEqual([malformed('an event-stream frame of 20 bytes cannot hold 8 bytes of headers')]);
  });

  it('reports a stream cut inside a frame, after the frames that were whole', async () => {
    const whole = event('messageStart', {});
    const cut = event('metadata', { usage: { inputTokens: 1, outputTokens: 2 } }).subarray(0, 30);
    expect(await parse(inPieces(Buffer.concat([whole, cut]), [7]))).toEqual([
      { messageType: 'event', eventType: 'messageStart', payload: {} },
      malformed('the stream ended inside a frame (30 bytes left over)'),
    ]);
  });

  it('reads an empty stream as no messages', async () => {
    expect(await parse(inPieces(Buffer.alloc(0), [1]))).toEqual([]);
  });
});
