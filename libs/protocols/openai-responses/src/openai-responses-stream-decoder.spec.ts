import type { StreamEvent } from '@rosetta/canonical';
import { fixtureEvents, fixtureJson, serializeEvents, type SerializedEvent } from './__fixtures__/load-fixture';
import { OpenAIResponsesStreamDecoder } from './openai-responses-stream-decoder';

function decode(events: unknown[]): StreamEvent[] {
  const decoder = new OpenAIResponsesStreamDecoder();
  return [...events.flatMap((event) => decoder.push(event)), ...decoder.end()];
}

describe('OpenAIResponsesStreamDecoder', () => {
  it.each([
    ['text', 'one message, usage with cached and reasoning tokens'],
    ['reasoning-tools', 'two summary parts, encrypted reasoning, a streamed call and a namespaced one sent whole'],
    ['custom-tool', "Codex's free-form apply_patch call"],
    ['incomplete', 'the output cap: an item closed without its part'],
    ['failed', 'a response that fails mid-way'],
    ['cut', 'a stream cut before the response completed'],
  ])('decodes %s (%s)', (name) => {
    expect(serializeEvents(decode(fixtureEvents(`responses-${name}.events.jsonl`)))).toEqual(fixtureJson<SerializedEvent[]>(`responses-${name}.canonical.json`));
  });

  it('reads an `error` event (the chat parser hands it over as `{error}`) as a retryable upstream error', () => {
    const events = decode([{ error: { type: 'error', code: 'server_error', message: 'overloaded', sequence_number: 0 } }]);
    expect(serializeEvents(events)).toEqual([{ type: 'error', error: { type: 'upstream_error', status: 502, message: 'Upstream service error: overloaded' } }]);
    expect((events[0] as Extract<StreamEvent, { type: 'error' }>).error.retryable).toBe(true);
  });

  it('ignores events it has no use for and anything after the end', () => {
    const [created, ...rest] = fixtureEvents('responses-text.events.jsonl');
    const decoder = new OpenAIResponsesStreamDecoder();
    decoder.push(created);
    expect(decoder.push({ type: 'response.output_text.annotation.added', output_index: 0 })).toEqual([]);
    for (const event of rest) decoder.push(event);
    expect(decoder.push({ type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'late' })).toEqual([]);
    expect(decoder.end()).toEqual([]);
  });
});
