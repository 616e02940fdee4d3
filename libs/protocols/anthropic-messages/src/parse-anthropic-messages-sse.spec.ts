import { GatewayError } from '@rosetta/canonical';
import { parseAnthropicMessagesSSE } from './parse-anthropic-messages-sse';

async function collect(source: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of source) out.push(item);
  return out;
}

async function* pieces(...parts: (string | Uint8Array)[]): AsyncGenerator<string | Uint8Array> {
  yield* parts;
}

describe('parseAnthropicMessagesSSE', () => {
  it('reassembles named events split anywhere, even inside a multi-byte character', async () => {
    const text =
      'event: content_block_delta\r\ndata: {"type":"content_block_delta","delta":{"text":"héllo 👋"}}\r\n\r\n' +
      ': keep-alive\n\nevent: ping\ndata: {"type": "ping"}\n\ndata:{"type":"unnamed"}\n\n';
    const parts = Array.from(new TextEncoder().encode(text), (byte) => Uint8Array.of(byte));
    expect(await collect(parseAnthropicMessagesSSE(pieces(...parts)))).toEqual([
      { event: 'content_block_delta', data: { type: 'content_block_delta', delta: { text: 'héllo 👋' } } },
      { event: 'ping', data: { type: 'ping' } },
      { data: { type: 'unnamed' } },
    ]);
  });

  it('yields each event as it arrives rather than after the stream ends', async () => {
    let released = false;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* source(): AsyncGenerator<string> {
      yield 'event: message_start\ndata: {"first":true}\n\n';
      await gate;
      released = true;
      yield 'event: message_stop\ndata: {"second":true}\n\n';
    }
    const iterator = parseAnthropicMessagesSSE(source());
    expect(await iterator.next()).toEqual({ value: { event: 'message_start', data: { first: true } }, done: false });
    expect(released).toBe(false);
    release();
    expect(await iterator.next()).toEqual({ value: { event: 'message_stop', data: { second: true } }, done: false });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('keeps a last event that lacks its blank line when the connection closes', async () => {
    expect(await collect(parseAnthropicMessagesSSE(pieces('event: a\ndata: {"a":1}\n\nevent: b\ndata: {"b":2}')))).toEqual([
      { event: 'a', data: { a: 1 } },
      { event: 'b', data: { b: 2 } },
    ]);
  });

  it('fails with an upstream error on a data line that is not JSON', async () => {
    const failure = collect(parseAnthropicMessagesSSE(pieces('event: a\ndata: {"a":1}\n\nevent: b\ndata: not json\n\n')));
    await expect(failure).rejects.toBeInstanceOf(GatewayError);
    await expect(failure).rejects.toMatchObject({ type: 'upstream_error', status: 502, message: 'Upstream service error: malformed stream event' });
  });

  it('drops a last event cut off mid-JSON instead of calling it malformed', async () => {
    expect(await collect(parseAnthropicMessagesSSE(pieces('event: a\ndata: {"a":1}\n\nevent: b\ndata: {"b":')))).toEqual([{ event: 'a', data: { a: 1 } }]);
  });
});
