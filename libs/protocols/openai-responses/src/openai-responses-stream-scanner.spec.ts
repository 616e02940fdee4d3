import type { StreamEvent } from '@rosetta/canonical';
import type { SseFrame } from '@rosetta/protocols/common';
import { fixtureEvents } from './__fixtures__/load-fixture';
import { OpenAIResponsesStreamDecoder } from './openai-responses-stream-decoder';
import { OpenAIResponsesStreamScanner } from './openai-responses-stream-scanner';

const FIXTURES = ['text', 'reasoning-tools', 'custom-tool', 'incomplete', 'failed', 'cut'];

/** Each recorded event as the upstream's frame, named by its type as OpenAI names them. */
function frames(name: string): SseFrame[] {
  return fixtureEvents(`responses-${name}.events.jsonl`).map((event) => ({ event: (event as { type: string }).type, data: JSON.stringify(event), final: false }));
}

function scan(input: SseFrame[]): StreamEvent[] {
  const scanner = new OpenAIResponsesStreamScanner();
  return [...input.flatMap((frame) => scanner.push(frame)), ...scanner.end()];
}

function decode(name: string): StreamEvent[] {
  const decoder = new OpenAIResponsesStreamDecoder();
  return [...fixtureEvents(`responses-${name}.events.jsonl`).flatMap((event) => decoder.push(event)), ...decoder.end()];
}

/** What the ledger, the token settlement and the relay read: the start, usage, the finish, errors. */
const outcome = (events: StreamEvent[]) => events.filter((e) => e.type === 'start' || e.type === 'usage' || e.type === 'finish' || e.type === 'error');

const outputChars = (events: StreamEvent[]) =>
  events.reduce((sum, e) => sum + (e.type === 'text-delta' || e.type === 'thinking-delta' || e.type === 'refusal-delta' ? e.text.length : e.type === 'tool-call-delta' ? e.argumentsDelta.length : 0), 0);

describe('OpenAIResponsesStreamScanner', () => {
  it.each(FIXTURES)('reads the start, usage, finish and errors of %s as the full decoder does', (name) => {
    expect(outcome(scan(frames(name)))).toEqual(outcome(decode(name)));
  });

  it.each(FIXTURES)('forwards every event of %s before its outcome as it came, with the output the decoder counts', (name) => {
    const input = frames(name);
    const wire = scan(input).flatMap((e) => (e.type === 'wire' ? [e] : []));
    const failedAt = input.findIndex((frame) => frame.event === 'response.failed' || frame.event === 'error');
    expect(wire.map((e) => e.text)).toEqual(input.slice(0, failedAt < 0 ? undefined : failedAt).map((frame) => `event: ${frame.event}\ndata: ${frame.data}\n\n`));
    expect(wire.reduce((sum, e) => sum + e.outputChars, 0)).toEqual(outputChars(decode(name)));
  });

  it('holds the opening events and an empty message as preamble; a call counts from its start', () => {
    const content = (name: string) => scan(frames(name)).flatMap((e) => (e.type === 'wire' ? [[JSON.parse(e.payload).type, e.content]] : []));
    expect(content('text').slice(0, 4)).toEqual([
      ['response.created', false],
      ['response.in_progress', false],
      ['response.output_item.added', false],
      ['response.content_part.added', false],
    ]);
    expect(content('reasoning-tools')).toContainEqual(['response.output_item.added', true]);
    expect(content('text').at(-1)).toEqual(['response.completed', true]);
  });

  it('takes an error event as the stream failing, retryable before anything reached the client', () => {
    const events = scan([{ event: 'error', data: '{"type":"error","code":"server_error","message":"overloaded","sequence_number":0}', final: false }]);
    expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ type: 'upstream_error', message: 'Upstream service error: overloaded', status: 502, retryable: true }) }]);
  });

  it('fails on a malformed frame, but drops one the closing connection cut short', () => {
    const scanner = new OpenAIResponsesStreamScanner();
    expect(() => scanner.push({ data: '{"type":', final: false })).toThrow('malformed stream event');
    expect(scanner.push({ data: '{"type":', final: true })).toEqual([]);
  });
});

describe('OpenAIResponsesStreamScanner, hostile item numbering', () => {
  const created = { event: 'response.created', data: JSON.stringify({ type: 'response.created', sequence_number: 0, response: { id: 'resp_up' } }), final: false };
  const added = (output_index: unknown, item: unknown = { id: 'msg_up', type: 'message', content: [] }) => ({
    event: 'response.output_item.added',
    data: JSON.stringify({ type: 'response.output_item.added', sequence_number: 1, output_index, item }),
    final: false,
  });

  it.each([20_000_000, 1, -1, 0.5, '0', null, undefined])('fails the stream on an item at output index %p before any other', (index) => {
    const scanner = new OpenAIResponsesStreamScanner();
    scanner.push(created);
    expect(scanner.push(added(index))).toEqual([{ type: 'error', error: expect.objectContaining({ message: 'Upstream service error: malformed stream event: output items out of order', retryable: true }) }]);
  });

  it('fails the stream on an item event without an item object', () => {
    const scanner = new OpenAIResponsesStreamScanner();
    scanner.push(created);
    expect(scanner.push(added(0, 'msg_up'))).toEqual([expect.objectContaining({ type: 'error' })]);
  });

  it('takes items numbered in order, and an item done again at its own index', () => {
    const scanner = new OpenAIResponsesStreamScanner();
    scanner.push(created);
    for (const frame of [added(0), added(1), { ...added(0), data: added(0).data.replace('added', 'done') }]) {
      expect(scanner.push(frame).map((e) => e.type)).toEqual(['wire']);
    }
  });
});
