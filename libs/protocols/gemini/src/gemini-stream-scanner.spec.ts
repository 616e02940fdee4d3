import type { StreamEvent } from '@rosetta/canonical';
import type { SseFrame } from '@rosetta/protocols/common';
import { fixtureLines } from './__fixtures__/load-fixture';
import { GeminiStreamDecoder } from './gemini-stream-decoder';
import { GeminiStreamScanner } from './gemini-stream-scanner';

const FIXTURES = ['gemini-text', 'gemini-thinking', 'gemini-tool-call', 'gemini-parallel-tool-calls', 'gemini-max-tokens', 'gemini-safety', 'gemini-blocked-prompt', 'gemini-error', 'gemini-stream-cut'];

/** Each recorded chunk as the upstream's frame: its JSON text exactly as recorded. */
function frames(name: string): SseFrame[] {
  return fixtureLines(`${name}.chunks.jsonl`).map((chunk) => ({ data: JSON.stringify(chunk), final: false }));
}

function scan(input: SseFrame[]): StreamEvent[] {
  const scanner = new GeminiStreamScanner();
  return [...input.flatMap((frame) => scanner.push(frame)), ...scanner.end()];
}

function decode(name: string): StreamEvent[] {
  const decoder = new GeminiStreamDecoder();
  return [...fixtureLines(`${name}.chunks.jsonl`).flatMap((chunk) => decoder.push(chunk)), ...decoder.end()];
}

/** What the ledger, the token settlement and the relay read: the start (its clock aside), usage, the finish, errors. */
const outcome = (events: StreamEvent[]): StreamEvent[] =>
  events.flatMap((e): StreamEvent[] => (e.type === 'start' ? [{ ...e, created: 0 }] : e.type === 'usage' || e.type === 'finish' || e.type === 'error' ? [e] : []));

const outputChars = (events: StreamEvent[]) =>
  events.reduce((sum, e) => sum + (e.type === 'text-delta' || e.type === 'thinking-delta' ? e.text.length : e.type === 'tool-call-delta' ? e.argumentsDelta.length : 0), 0);

describe('GeminiStreamScanner', () => {
  it.each(FIXTURES)('reads the start, usage, finish and errors of %s as the full decoder does', (name) => {
    expect(outcome(scan(frames(name)))).toEqual(outcome(decode(name)));
  });

  it.each(FIXTURES)('forwards every chunk of %s as it came, with the output the decoder counts', (name) => {
    const input = frames(name);
    const wire = scan(input).flatMap((e) => (e.type === 'wire' ? [e] : []));
    const forwarded = input.filter((frame) => !frame.data.startsWith('{"error"'));
    expect(wire.map((e) => e.payload)).toEqual(forwarded.map((frame) => frame.data));
    expect(wire.reduce((sum, e) => sum + e.outputChars, 0)).toEqual(outputChars(decode(name)));
  });

  it('counts a function call, a blocked prompt and the finish as output, so nothing after them falls back', () => {
    const content = (name: string) => scan(frames(name)).flatMap((e) => (e.type === 'wire' ? [e.content] : []));
    expect(content('gemini-tool-call').every(Boolean)).toBe(true);
    expect(content('gemini-blocked-prompt')).toEqual([true]);
  });

  it('holds a frame without output as preamble', () => {
    const scanner = new GeminiStreamScanner();
    const events = scanner.push({ data: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, index: 0 }], responseId: 'r' }), final: false });
    expect(events.filter((e) => e.type === 'wire')).toEqual([expect.objectContaining({ content: false, outputChars: 0 })]);
  });

  it('counts output only before the finish, as the decoder takes it', () => {
    const finished = { candidates: [{ content: { role: 'model', parts: [{ text: 'done' }] }, finishReason: 'STOP', index: 0 }] };
    const late = { candidates: [{ content: { role: 'model', parts: [{ text: 'late' }] }, index: 0 }], usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 3, totalTokenCount: 5 } };
    const events = scan([finished, late].map((chunk) => ({ data: JSON.stringify(chunk), final: false })));
    expect(events.flatMap((e) => (e.type === 'wire' ? [e.outputChars] : []))).toEqual([4, 0]);
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: expect.objectContaining({ unified: 'stop' }), usage: { inputTokens: 2, outputTokens: 3 } });
  });

  it('fails on a malformed frame, but drops one the closing connection cut short', () => {
    const scanner = new GeminiStreamScanner();
    expect(() => scanner.push({ data: '{"candidates":', final: false })).toThrow('malformed stream event');
    expect(scanner.push({ data: '{"candidates":', final: true })).toEqual([]);
    expect(scanner.end()).toEqual([{ type: 'error', error: expect.objectContaining({ message: 'Upstream service error: stream ended before a finishReason', retryable: true }) }]);
  });
});
