import { parseFrameData, parseSseFrames, sseText, type SseFrame } from './stream-pass-through';

async function collect(pieces: string[]): Promise<SseFrame[]> {
  const frames: SseFrame[] = [];
  for await (const frame of parseSseFrames((async function* () {
    yield* pieces.map((piece) => new TextEncoder().encode(piece));
  })())) frames.push(frame);
  return frames;
}

describe('parseSseFrames', () => {
  it('yields each event with its name and data, across reads, skipping comments', async () => {
    const frames = await collect([': keep-alive\n\nevent: message_start\ndata: {"a":', '1}\n\ndata: {"b":2}\n\n', 'data: [DONE]\n\n']);
    expect(frames).toEqual([
      { event: 'message_start', data: '{"a":1}', final: false },
      { data: '{"b":2}', final: false },
      { data: '[DONE]', final: false },
    ]);
  });

  it('marks a last event left without its blank line as final', async () => {
    expect(await collect(['data: {"a":1}\n\ndata: {"b":'])).toEqual([
      { data: '{"a":1}', final: false },
      { data: '{"b":', final: true },
    ]);
  });
});

describe('parseFrameData', () => {
  it('fails the stream on a malformed payload, but drops one the closing connection cut short', () => {
    expect(() => parseFrameData({ data: '{"b":', final: false })).toThrow('malformed stream event');
    expect(parseFrameData({ data: '{"b":', final: true })).toBeUndefined();
  });
});

describe('sseText', () => {
  it('writes a frame as SSE lines, a data line per line of data', () => {
    expect(sseText('ping', '{"type":"ping"}')).toBe('event: ping\ndata: {"type":"ping"}\n\n');
    expect(sseText(undefined, 'a\nb')).toBe('data: a\ndata: b\n\n');
  });
});
