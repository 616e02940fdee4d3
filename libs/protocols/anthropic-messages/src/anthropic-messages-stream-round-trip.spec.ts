/**
 * Upstream SSE bytes → parse → decode → encode → client SSE, re-parsed and rebuilt the way the
 * SDK's MessageStream does: the client must end up with the same message a non-streamed call
 * would have given it.
 */
import type { StreamEvent } from '@rosetta/canonical';
import { accumulateMessage, StreamError } from './__fixtures__/accumulate-message';
import { fixtureEvents, fixtureJson, freezeNow, toSSEText, type SSEEvent } from './__fixtures__/load-fixture';
import { AnthropicMessagesStreamDecoder } from './anthropic-messages-stream-decoder';
import { AnthropicMessagesStreamEncoder } from './anthropic-messages-stream-encoder';
import { convertAnthropicMessagesResponse } from './convert-anthropic-messages-response';
import { convertToAnthropicMessagesResponse } from './convert-to-anthropic-messages-response';
import { parseAnthropicMessagesSSE } from './parse-anthropic-messages-sse';

/** The bytes an upstream would send, cut into uneven pieces to exercise reassembly. */
async function* upstreamBytes(events: SSEEvent[]): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(toSSEText(events));
  for (let offset = 0, size = 7; offset < bytes.length; offset += size, size = ((size * 3) % 41) + 5) {
    yield bytes.slice(offset, offset + size);
  }
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

async function relay(upstream: SSEEvent[], id: string, model: string): Promise<SSEEvent[]> {
  const decoder = new AnthropicMessagesStreamDecoder();
  const encoder = new AnthropicMessagesStreamEncoder({ id, model });
  const events: StreamEvent[] = [];
  for await (const event of parseAnthropicMessagesSSE(upstreamBytes(upstream))) events.push(...decoder.push(event));
  events.push(...decoder.end());
  return collect(parseAnthropicMessagesSSE(once(events.map((event) => encoder.encode(event)).join(''))));
}

beforeEach(() => freezeNow());
afterEach(() => jest.restoreAllMocks());

describe('Anthropic stream round trip', () => {
  it.each(['text', 'tool-use', 'parallel-tool-use', 'redacted-thinking', 'stop-sequence', 'max-tokens', 'refusal'])(
    'a streamed %s reaches the client as the same message as the non-streamed answer',
    async (name) => {
      const whole = convertToAnthropicMessagesResponse({ response: convertAnthropicMessagesResponse({ body: fixtureJson(`anthropic-response-${name}.json`) }) });
      const client = await relay(fixtureEvents(`anthropic-${name}.events.jsonl`), whole['id'] as string, whole['model'] as string);
      expect(accumulateMessage(client)).toEqual(whole);
    },
  );

  it('relays an upstream error as an error event the SDK raises, after the text sent so far', async () => {
    const client = await relay(fixtureEvents('anthropic-error.events.jsonl'), 'msg_r', 'rosetta/x');
    expect(client.slice(-2)).toEqual([
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Partial' } } },
      { event: 'error', data: { type: 'error', error: { type: 'upstream_error', message: 'Upstream service error: Overloaded' } } },
    ]);
    expect(() => accumulateMessage(client)).toThrow(StreamError);
  });

  it('reports a cut stream to the client as an error, not as a finished message', async () => {
    const client = await relay(fixtureEvents('anthropic-stream-cut.events.jsonl'), 'msg_r', 'rosetta/x');
    expect(client[client.length - 1]).toEqual({
      event: 'error',
      data: { type: 'error', error: { type: 'upstream_error', message: 'Upstream service error: stream ended before message_stop' } },
    });
  });
});
