import type { StreamEvent } from '@rosetta/canonical';
import { parseAwsEventStream } from '@rosetta/protocols/common';
import { encodeFrame, fixtureFrames, fixtureJson, freezeNow, inPieces, serializeEvents, type FixtureFrame, type SerializedEvent } from './__fixtures__/load-fixture';
import { BedrockConverseStreamDecoder } from './bedrock-converse-stream-decoder';

/** The frames as bytes in uneven pieces → the event-stream parser → the decoder. */
async function decode(frames: FixtureFrame[] | AsyncIterable<Uint8Array>): Promise<StreamEvent[]> {
  const decoder = new BedrockConverseStreamDecoder();
  const events: StreamEvent[] = [];
  for await (const message of parseAwsEventStream(Array.isArray(frames) ? inPieces(frames) : frames)) events.push(...decoder.push(message));
  return [...events, ...decoder.end()];
}

/** Comparable JSON: the made-up response id checked for shape, then fixed. */
function comparable(events: StreamEvent[]): SerializedEvent[] {
  return serializeEvents(events).map((event) => {
    if (event.type !== 'start') return event;
    expect(event.id).toMatch(/^msg_bdrk_[0-9a-f]{32}$/);
    return { ...event, id: 'ID' };
  });
}

const ev = (event: string, payload: Record<string, unknown> = {}): FixtureFrame => ({ event, payload });
const text = (contentBlockIndex: number, value: string) => ev('contentBlockDelta', { contentBlockIndex, delta: { text: value } });
const stop = (stopReason = 'end_turn') => ev('messageStop', { stopReason });
const metadata = ev('metadata', { usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } });

beforeEach(() => freezeNow());
afterEach(() => jest.restoreAllMocks());

describe('BedrockConverseStreamDecoder', () => {
  it.each([
    ['bedrock-text', "text, with Bedrock's padding and cache usage"],
    ['bedrock-tool-use', 'signed reasoning, text, then two tool calls with their input in fragments'],
    ['bedrock-redacted-thinking', 'redacted reasoning before signed reasoning, the output cap'],
    ['bedrock-throttled', 'a throttling exception mid-stream'],
    ['bedrock-stream-cut', 'a stream cut before messageStop'],
  ])('decodes %s (%s), its frames split anywhere', async (name) => {
    expect(comparable(await decode(fixtureFrames(`${name}.frames.jsonl`)))).toEqual(fixtureJson<SerializedEvent[]>(`${name}.canonical.json`));
  });

  it.each([
    ['validationException', 'invalid_request_error', 400, false],
    ['serviceUnavailableException', 'upstream_error', 503, true],
    ['modelStreamErrorException', 'upstream_error', 502, true],
    ['internalServerException', 'upstream_error', 502, true],
  ])('ends with an error for a %s, never a finish', async (exception, type, status, retryable) => {
    const events = await decode([ev('messageStart'), text(0, 'a'), { exception, payload: { message: 'went wrong' } }, stop(), metadata]);
    expect(events.slice(-1)).toEqual([{ type: 'error', error: expect.objectContaining({ type, status, retryable, message: `Upstream service error: ${exception}: went wrong` }) }]);
  });

  it('ends with an error at a frame that fails its checksum, keeping what came before', async () => {
    const bytes = Buffer.concat([ev('messageStart'), text(0, 'kept'), text(0, 'lost'), stop(), metadata].map(encodeFrame));
    const third = encodeFrame(ev('messageStart')).length + encodeFrame(text(0, 'kept')).length;
    bytes.writeUInt8(bytes.readUInt8(third + 40) ^ 0x20, third + 40);
    const events = await decode((async function* () {
      yield new Uint8Array(bytes);
    })());
    expect(events.map((event) => event.type)).toEqual(['start', 'text-start', 'text-delta', 'error']);
    expect(events[3]).toEqual({ type: 'error', error: expect.objectContaining({ type: 'upstream_error', status: 502, message: expect.stringMatching(/^Upstream service error: MalformedEventStream: an event-stream frame could not be read/) }) });
  });

  it('finishes once, after metadata, and ignores anything after', async () => {
    const decoder = new BedrockConverseStreamDecoder();
    const push = (frame: FixtureFrame) => decoder.push({ messageType: 'event', eventType: 'event' in frame ? frame.event : '', payload: frame.payload });
    expect(push(ev('messageStart')).map((e) => e.type)).toEqual(['start']);
    expect(push(text(0, 'a')).map((e) => e.type)).toEqual(['text-start', 'text-delta']);
    expect(push(stop()).map((e) => e.type)).toEqual(['text-end']);
    expect(push(metadata)).toEqual([{ type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: { inputTokens: 3, outputTokens: 2 } }]);
    expect(push(text(0, 'late'))).toEqual([]);
    expect(decoder.end()).toEqual([]);
  });

  it('finishes at the end, without usage, when the stream stops with no metadata; at messageStop when metadata came first', async () => {
    expect((await decode([ev('messageStart'), text(0, 'a'), stop('stop_sequence')])).slice(-1)).toEqual([{ type: 'finish', finishReason: { unified: 'stop_sequence', raw: 'stop_sequence' } }]);
    expect((await decode([ev('messageStart'), text(0, 'a'), metadata, stop()])).slice(-2)).toEqual([
      { type: 'text-end', index: 0 },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: { inputTokens: 3, outputTokens: 2 } },
    ]);
  });

  it("numbers blocks in the order they open, whatever Bedrock's indexes, and closes blocks left open at messageStop", async () => {
    const events = await decode([
      ev('messageStart'),
      text(4, 'first'),
      ev('contentBlockStart', { contentBlockIndex: 9, start: { toolUse: { toolUseId: 't1', name: 'f' } } }),
      ev('contentBlockDelta', { contentBlockIndex: 9, delta: { toolUse: { input: '{}' } } }),
      ev('contentBlockStop', { contentBlockIndex: 4 }),
      stop('tool_use'),
      metadata,
    ]);
    expect(events.slice(1, -1)).toEqual([
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'first' },
      { type: 'tool-call-start', index: 1, id: 't1', name: 'f' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{}' },
      { type: 'text-end', index: 0 },
      { type: 'tool-call-end', index: 1 },
    ]);
  });

  it('joins redacted reasoning sent in several deltas into one event, and ignores deltas of another kind on an open block', async () => {
    const first = Buffer.from('secret reasoning, ').toString('base64');
    const second = Buffer.from('encrypted').toString('base64');
    const events = await decode([
      ev('messageStart'),
      ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { redactedContent: first } } }),
      text(0, 'not text'),
      ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { redactedContent: second } } }),
      ev('contentBlockStop', { contentBlockIndex: 0 }),
      stop(),
      metadata,
    ]);
    expect(events.slice(1, -1)).toEqual([{ type: 'redacted-thinking', index: 0, data: Buffer.from('secret reasoning, encrypted').toString('base64'), protocol: 'bedrock-converse' }]);
  });

  it('ignores chunks that are no parsed frame and event types it does not know', async () => {
    const decoder = new BedrockConverseStreamDecoder();
    expect(decoder.push('text')).toEqual([]);
    expect(decoder.push({ payload: {} })).toEqual([]);
    expect(decoder.push({ messageType: 'event', eventType: 'somethingNew', payload: {} }).map((e) => e.type)).toEqual(['start']);
  });
});
