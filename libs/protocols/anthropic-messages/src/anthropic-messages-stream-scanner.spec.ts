import type { StreamEvent } from '@rosetta/canonical';
import type { SseFrame } from '@rosetta/protocols/common';
import { fixtureEvents, type SSEEvent } from './__fixtures__/load-fixture';
import { AnthropicMessagesPassThroughFraming } from './anthropic-messages-pass-through-framing';
import { AnthropicMessagesStreamDecoder } from './anthropic-messages-stream-decoder';
import { AnthropicMessagesStreamScanner } from './anthropic-messages-stream-scanner';

const FIXTURES = ['anthropic-text', 'anthropic-tool-use', 'anthropic-parallel-tool-use', 'anthropic-redacted-thinking', 'anthropic-refusal', 'anthropic-max-tokens', 'anthropic-stop-sequence', 'anthropic-error', 'anthropic-stream-cut'];

/** Each recorded event as the upstream's frame: its name and its JSON text exactly as recorded. */
function frames(name: string): SseFrame[] {
  return fixtureEvents(`${name}.events.jsonl`).map((e: SSEEvent) => ({ ...(e.event ? { event: e.event } : {}), data: JSON.stringify(e.data), final: false }));
}

function scan(input: SseFrame[]): StreamEvent[] {
  const scanner = new AnthropicMessagesStreamScanner();
  return [...input.flatMap((frame) => scanner.push(frame)), ...scanner.end()];
}

function decode(name: string): StreamEvent[] {
  const decoder = new AnthropicMessagesStreamDecoder();
  return [...fixtureEvents(`${name}.events.jsonl`).flatMap((event) => decoder.push(event)), ...decoder.end()];
}

const outcome = (events: StreamEvent[]) => events.filter((e) => e.type === 'usage' || e.type === 'finish' || e.type === 'error');
const outputChars = (events: StreamEvent[]) =>
  events.reduce((sum, e) => sum + (e.type === 'text-delta' || e.type === 'thinking-delta' || e.type === 'refusal-delta' ? e.text.length : e.type === 'tool-call-delta' ? e.argumentsDelta.length : 0), 0);

describe('AnthropicMessagesStreamScanner', () => {
  it.each(FIXTURES)('reads the usage, finish and errors of %s as the full decoder does', (name) => {
    expect(outcome(scan(frames(name)))).toEqual(outcome(decode(name)));
  });

  // The parallel fixture has a call whose input comes whole in its start: the decoder re-sends it, the scanner counts deltas only.
  it.each(FIXTURES.filter((name) => name !== 'anthropic-parallel-tool-use'))('counts the output of %s as the full decoder does', (name) => {
    const wire = scan(frames(name)).reduce((sum, e) => sum + (e.type === 'wire' ? e.outputChars : 0), 0);
    expect(wire).toEqual(outputChars(decode(name)));
  });

  it('forwards every event but message_start byte for byte; message_start gets the gateway id and the served model', () => {
    const input = frames('anthropic-tool-use');
    const framing = new AnthropicMessagesPassThroughFraming({ id: 'msg_gw1', model: 'rosetta/claude-sonnet-4.5' });
    const text = scan(input).map((event) => framing.encode(event)).join('');
    const expected = input.map((frame) => `event: ${frame.event}\ndata: ${frame.data}\n\n`);
    const start = JSON.parse(input[0]!.data) as { message: Record<string, unknown> };
    expected[0] = `event: message_start\ndata: ${JSON.stringify({ ...start, message: { ...start.message, id: 'msg_gw1', model: 'rosetta/claude-sonnet-4.5' } })}\n\n`;
    expect(text).toEqual(expected.join(''));
  });

  it('keeps message_start, pings and empty block starts as preamble; output starts with the first delta', () => {
    const content = scan(frames('anthropic-text')).flatMap((e) => (e.type === 'wire' ? [`${JSON.parse(e.text.split('data: ')[1]!).type}:${e.content}`] : []));
    expect(content.slice(0, 3)).toEqual(['message_start:false', 'content_block_start:false', 'content_block_delta:true']);
  });

  it('ends a cut stream with the in-stream error event', () => {
    const framing = new AnthropicMessagesPassThroughFraming({ id: 'msg_gw1', model: 'rosetta/claude-sonnet-4.5' });
    const text = scan(frames('anthropic-stream-cut')).map((event) => framing.encode(event)).join('');
    expect(text.split('\n\n').filter(Boolean).at(-1)).toEqual(
      'event: error\ndata: {"type":"error","error":{"type":"upstream_error","message":"Upstream service error: stream ended before message_stop"}}',
    );
  });
});
