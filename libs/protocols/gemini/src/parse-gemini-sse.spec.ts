import { GatewayError } from '@rosetta/canonical';
import { collect, inPieces } from './__fixtures__/load-fixture';
import { formatGeminiSSE } from './gemini-stream-framing';
import { parseGeminiSSE } from './parse-gemini-sse';

async function* pieces(...parts: string[]): AsyncGenerator<string> {
  yield* parts;
}

describe('formatGeminiSSE', () => {
  it('writes one data line per chunk, ended by a CRLF blank line, even when the text holds newlines', () => {
    expect(formatGeminiSSE({ t: 'a\nb' })).toBe('data: {"t":"a\\nb"}\r\n\r\n');
  });
});

describe('parseGeminiSSE', () => {
  it("reads Google's CRLF framing split anywhere, even inside a multi-byte character", async () => {
    const text = 'data: {"t":"héllo 👋"}\r\n\r\ndata: {"n":2}\r\n\r\n: comment\r\n\r\ndata:{"n":3}\n\n';
    expect(await collect(parseGeminiSSE(inPieces(text, [1])))).toEqual([{ t: 'héllo 👋' }, { n: 2 }, { n: 3 }]);
    expect(await collect(parseGeminiSSE(inPieces(text)))).toEqual([{ t: 'héllo 👋' }, { n: 2 }, { n: 3 }]);
  });

  it('yields each event as it arrives rather than after the stream ends', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* source(): AsyncGenerator<string> {
      yield 'data: {"first":true}\r\n\r\n';
      await gate;
      yield 'data: {"second":true}\r\n\r\n';
    }
    const iterator = parseGeminiSSE(source());
    expect(await iterator.next()).toEqual({ value: { first: true }, done: false });
    release();
    expect(await iterator.next()).toEqual({ value: { second: true }, done: false });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('keeps a last event without its blank line, and drops one cut off mid-JSON', async () => {
    expect(await collect(parseGeminiSSE(pieces('data: {"a":1}\r\n\r\ndata: {"b":2}')))).toEqual([{ a: 1 }, { b: 2 }]);
    expect(await collect(parseGeminiSSE(pieces('data: {"a":1}\r\n\r\ndata: {"b":')))).toEqual([{ a: 1 }]);
  });

  it('fails with an upstream error on a data line that is not JSON', async () => {
    const failure = collect(parseGeminiSSE(pieces('data: {"a":1}\r\n\r\ndata: not json\r\n\r\n')));
    await expect(failure).rejects.toBeInstanceOf(GatewayError);
    await expect(failure).rejects.toMatchObject({ type: 'upstream_error', status: 502, message: 'Upstream service error: malformed stream event' });
  });
});
