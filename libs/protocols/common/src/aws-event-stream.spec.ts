import { EventStreamCodec } from '@smithy/eventstream-codec';
import { MALFORMED, parseAwsEventStream, type AwsEventStreamMessage } from './aws-event-stream';

const codec = new EventStreamCodec((b) => Buffer.from(b).toString('utf8'), (s) => Buffer.from(s, 'utf8'));

function frame(headers: Record<string, string>, body: string): Uint8Array {
  return codec.encode({ headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, { type: 'string' as const, value: v }])), body: Buffer.from(body) });
}

async function* pieces(...chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<AwsEventStreamMessage[]> {
  const out: AwsEventStreamMessage[] = [];
  for await (const message of parseAwsEventStream(source)) out.push(message);
  return out;
}

describe('parseAwsEventStream', () => {
  const delta = frame({ ':event-type': 'contentBlockDelta', ':message-type': 'event', ':content-type': 'application/json' }, '{"contentBlockIndex":0,"delta":{"text":"Hi"},"p":"abc"}');
  const stop = frame({ ':event-type': 'messageStop', ':message-type': 'event' }, '{"stopReason":"end_turn"}');

  it('reads frames split anywhere and several in one chunk, payloads parsed', async () => {
    const all = Buffer.concat([delta, stop]);
    const expected = [
      { messageType: 'event', eventType: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: 'Hi' }, p: 'abc' } },
      { messageType: 'event', eventType: 'messageStop', payload: { stopReason: 'end_turn' } },
    ];
    expect(await collect(pieces(all))).toEqual(expected);
    // Byte by byte, and cut inside the prelude and inside the payload.
    expect(await collect(pieces(...[...all].map((byte) => Uint8Array.of(byte))))).toEqual(expected);
    expect(await collect(pieces(all.subarray(0, 5), all.subarray(5, 70), all.subarray(70)))).toEqual(expected);
  });

  it('an exception frame carries its type and message', async () => {
    const exception = frame({ ':exception-type': 'throttlingException', ':message-type': 'exception', ':content-type': 'application/json' }, '{"message":"Too many tokens"}');
    expect(await collect(pieces(exception))).toEqual([{ messageType: 'exception', exceptionType: 'throttlingException', payload: { message: 'Too many tokens' } }]);
  });

  it('a failed checksum or an impossible length ends the stream with a malformed-frame error, allocating nothing', async () => {
    const corrupt = Buffer.from(delta);
    corrupt[corrupt.length - 10] = corrupt[corrupt.length - 10]! ^ 0xff;
    const [bad] = await collect(pieces(corrupt, stop));
    expect(bad).toEqual(expect.objectContaining({ messageType: 'error', errorCode: MALFORMED }));
    const huge = Buffer.alloc(12);
    huge.writeUInt32BE(0x7fffffff, 0);
    expect(await collect(pieces(huge, stop))).toEqual([expect.objectContaining({ messageType: 'error', errorCode: MALFORMED, payload: { message: 'an event-stream frame of 2147483647 bytes is not valid' } })]);
  });

  it('a frame cut short at the end yields nothing more: the decoder reports the stream as cut', async () => {
    expect(await collect(pieces(Buffer.from(delta).subarray(0, 20)))).toEqual([]);
  });
});
