import type { StreamEvent } from '@rosetta/canonical';
import type { SseFrame } from '@rosetta/protocols/common';
import { fixtureLines } from './__fixtures__/load-fixture';
import { OpenAIChatStreamDecoder } from './openai-chat-stream-decoder';
import { OpenAIChatStreamScanner } from './openai-chat-stream-scanner';

const FIXTURES = ['openai-text', 'openai-tool-call', 'openai-parallel-tool-calls', 'openai-reasoning', 'openai-length', 'openai-content-filter', 'openai-error', 'openai-stream-cut'];

/** Each recorded chunk as the upstream's frame: its JSON text exactly as recorded. */
function frames(name: string): SseFrame[] {
  return fixtureLines(`${name}.chunks.jsonl`).map((chunk) => ({ data: typeof chunk === 'string' ? chunk : JSON.stringify(chunk), final: false }));
}

function scan(input: SseFrame[]): StreamEvent[] {
  const scanner = new OpenAIChatStreamScanner();
  return [...input.flatMap((frame) => scanner.push(frame)), ...scanner.end()];
}

function decode(name: string): StreamEvent[] {
  const decoder = new OpenAIChatStreamDecoder();
  return [...fixtureLines(`${name}.chunks.jsonl`).flatMap((chunk) => decoder.push(chunk)), ...decoder.end()];
}

/** What the ledger, the token settlement and the relay read: usage, the finish, errors. */
const outcome = (events: StreamEvent[]) => events.filter((e) => e.type === 'usage' || e.type === 'finish' || e.type === 'error');

const outputChars = (events: StreamEvent[]) =>
  events.reduce((sum, e) => sum + (e.type === 'text-delta' || e.type === 'thinking-delta' || e.type === 'refusal-delta' ? e.text.length : e.type === 'tool-call-delta' ? e.argumentsDelta.length : 0), 0);

describe('OpenAIChatStreamScanner', () => {
  it.each(FIXTURES)('reads the usage, finish and errors of %s as the full decoder does', (name) => {
    expect(outcome(scan(frames(name)))).toEqual(outcome(decode(name)));
  });

  it.each(FIXTURES)('forwards every chunk of %s as it came, with the output it carries', (name) => {
    const input = frames(name);
    const wire = scan(input).filter((e) => e.type === 'wire');
    const forwarded = input.filter((frame) => frame.data !== '[DONE]' && !frame.data.includes('"error"'));
    expect(wire.map((e) => e.type === 'wire' && e.text)).toEqual(forwarded.map((frame) => `data: ${frame.data}\n\n`));
    expect(wire.reduce((sum, e) => sum + (e.type === 'wire' ? e.outputChars : 0), 0)).toEqual(outputChars(decode(name)));
  });

  it('holds the role chunk as preamble: the first frame with output is the first content', () => {
    const content = scan(frames('openai-text')).flatMap((e) => (e.type === 'wire' ? [e.content] : []));
    // role, three text chunks, the finish (an answer can be empty), then the usage chunk.
    expect(content).toEqual([false, true, true, true, true, false]);
  });

  it('fails on a malformed frame, but drops one the closing connection cut short', () => {
    const scanner = new OpenAIChatStreamScanner();
    expect(() => scanner.push({ data: '{"id":', final: false })).toThrow('malformed stream event');
    expect(scanner.push({ data: '{"id":', final: true })).toEqual([]);
  });

  it('takes a named error event as an error', () => {
    const events = scan([{ event: 'error', data: '{"message":"overloaded"}', final: false }]);
    expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ type: 'upstream_error', message: 'Upstream service error: overloaded', status: 502 }) }]);
  });
});
