import { GatewayError } from '@rosetta/canonical';
import { parseOpenAIChatSSE } from './parse-openai-chat-sse';

async function collect(source: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of source) out.push(item);
  return out;
}

async function* pieces(...parts: (string | Uint8Array)[]): AsyncGenerator<string | Uint8Array> {
  yield* parts;
}

describe('parseOpenAIChatSSE', () => {
  it('reassembles events split anywhere, even inside a multi-byte character', async () => {
    const bytes = new TextEncoder().encode('data: {"t":"héllo 👋"}\r\n\r\n: keep-alive\n\ndata:{"n":2}\n\n');
    const parts = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(await collect(parseOpenAIChatSSE(pieces(...parts)))).toEqual([{ t: 'héllo 👋' }, { n: 2 }]);
  });

  it('stops at [DONE] without reading further', async () => {
    let readAfterDone = false;
    async function* source(): AsyncGenerator<string> {
      yield 'data: {"a":1}\n\ndata: [DONE]\n\n';
      readAfterDone = true;
      yield 'data: {"b":2}\n\n';
    }
    expect(await collect(parseOpenAIChatSSE(source()))).toEqual([{ a: 1 }]);
    expect(readAfterDone).toBe(false);
  });

  it('yields each event as it arrives rather than after the stream ends', async () => {
    let released = false;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* source(): AsyncGenerator<string> {
      yield 'data: {"first":true}\n\n';
      await gate;
      released = true;
      yield 'data: {"second":true}\n\n';
    }
    const iterator = parseOpenAIChatSSE(source());
    expect(await iterator.next()).toEqual({ value: { first: true }, done: false });
    expect(released).toBe(false);
    release();
    expect(await iterator.next()).toEqual({ value: { second: true }, done: false });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('keeps a last event that lacks its blank line when the connection closes', async () => {
    expect(await collect(parseOpenAIChatSSE(pieces('data: {"a":1}\n\ndata: {"b":2}')))).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('turns a named error event into an error chunk', async () => {
    expect(await collect(parseOpenAIChatSSE(pieces('event: error\ndata: {"message":"overloaded"}\n\n')))).toEqual([
      { error: { message: 'overloaded' } },
    ]);
  });

  it('fails with an upstream error on a data line that is not JSON', async () => {
    const failure = collect(parseOpenAIChatSSE(pieces('data: {"a":1}\n\ndata: not json\n\n')));
    await expect(failure).rejects.toBeInstanceOf(GatewayError);
    await expect(failure).rejects.toMatchObject({
      type: 'upstream_error',
      status: 502,
      message: 'Upstream service error: malformed stream event',
    });
  });

  it('drops a last event cut off mid-JSON instead of calling it malformed', async () => {
    expect(await collect(parseOpenAIChatSSE(pieces('data: {"a":1}\n\ndata: {"b":')))).toEqual([{ a: 1 }]);
  });
});
