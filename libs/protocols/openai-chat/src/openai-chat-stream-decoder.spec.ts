import type { StreamEvent } from '@rosetta/canonical';
import { fixtureJson, fixtureLines, serializeEvents, type SerializedEvent } from './__fixtures__/load-fixture';
import { OpenAIChatStreamDecoder } from './openai-chat-stream-decoder';

function decode(chunks: unknown[]): StreamEvent[] {
  const decoder = new OpenAIChatStreamDecoder();
  return [...chunks.flatMap((chunk) => decoder.push(chunk)), ...decoder.end()];
}

describe('OpenAIChatStreamDecoder', () => {
  it.each([
    ['openai-text', 'text, with usage in a final choices-less chunk'],
    ['openai-tool-call', 'text then a tool call with streamed argument fragments'],
    ['openai-parallel-tool-calls', 'two tool calls whose fragments interleave'],
    ['openai-reasoning', 'reasoning_content then text, usage on the finish chunk'],
    ['openai-length', 'the output cap (length)'],
    ['openai-refusal', 'a refusal'],
    ['openai-content-filter', 'a content filter stop after an Azure prompt-filter chunk'],
    ['openai-error', 'an in-stream error chunk'],
    ['openai-stream-cut', 'a stream cut before any finish_reason'],
  ])('decodes %s (%s)', (name) => {
    const events = decode(fixtureLines(`${name}.chunks.jsonl`));
    expect(serializeEvents(events)).toEqual(fixtureJson<SerializedEvent[]>(`${name}.events.json`));
  });

  it('synthesises one id for a call the upstream left unnamed, and lets the calls decide the reason', () => {
    const expected = fixtureJson<SerializedEvent[]>('openai-tool-call-no-id.events.json').map((event) =>
      event.type === 'tool-call-start' ? { ...event, id: expect.stringMatching(/^call_[0-9a-f]{32}$/) } : event,
    );
    expect(decode(fixtureLines('openai-tool-call-no-id.chunks.jsonl'))).toEqual(expected);
  });

  it('keeps the first id when a server repeats id and name on every fragment', () => {
    const fragment = (args: string, id: string) => ({
      choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id, type: 'function', function: { name: 'f', arguments: args } }] } }],
    });
    const events = decode([fragment('{"a"', 'call_1'), fragment(':1}', 'call_2'), { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }]);
    expect(events.filter((event) => event.type.startsWith('tool-call'))).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_1', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a"' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: ':1}' },
      { type: 'tool-call-end', index: 0 },
    ]);
  });

  it('holds arguments that arrive before the tool name until the call can start', () => {
    const delta = (toolCall: Record<string, unknown>) => ({ choices: [{ index: 0, delta: { tool_calls: [toolCall] } }] });
    const decoder = new OpenAIChatStreamDecoder();
    expect(decoder.push(delta({ index: 0, id: 'call_9', function: { arguments: '{"q":' } }))).toEqual([
      { type: 'start', id: '', model: '', created: expect.any(Number) },
    ]);
    expect(decoder.push(delta({ index: 0, function: { name: 'search', arguments: '"x"}' } }))).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_9', name: 'search' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"q":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"x"}' },
    ]);
  });

  it('opens a new block each time the kind of content changes, closing the previous one', () => {
    const events = decode([
      { id: 'c', model: 'm', created: 1, choices: [{ index: 0, delta: { reasoning: 'hmm' } }] },
      { id: 'c', model: 'm', created: 1, choices: [{ index: 0, delta: { content: 'a' } }] },
      { id: 'c', model: 'm', created: 1, choices: [{ index: 0, delta: { reasoning: 'again' } }] },
      { id: 'c', model: 'm', created: 1, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ]);
    expect(events).toEqual([
      { type: 'start', id: 'c', model: 'm', created: 1 },
      { type: 'thinking-start', index: 0 },
      { type: 'thinking-delta', index: 0, text: 'hmm' },
      { type: 'thinking-end', index: 0 },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, text: 'a' },
      { type: 'text-end', index: 1 },
      { type: 'thinking-start', index: 2 },
      { type: 'thinking-delta', index: 2, text: 'again' },
      { type: 'thinking-end', index: 2 },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' } },
    ]);
  });

  it('emits finish once, as soon as usage follows the finish_reason, and nothing at end()', () => {
    const decoder = new OpenAIChatStreamDecoder();
    const chunks = fixtureLines('openai-length.chunks.jsonl');
    const beforeUsage = chunks.slice(0, -1).flatMap((chunk) => decoder.push(chunk));
    expect(beforeUsage.some((event) => event.type === 'finish')).toBe(false);
    const last = chunks[chunks.length - 1];
    expect(decoder.push(last).map((event) => event.type)).toEqual(['usage', 'finish']);
    expect(decoder.end()).toEqual([]);
    expect(decoder.push(last)).toEqual([]);
  });

  it('waits for the final usage when a server reports running usage before the finish_reason', () => {
    const usage = (completion: number) => ({ prompt_tokens: 5, completion_tokens: completion, total_tokens: 5 + completion });
    const events = decode([
      { id: 'c', model: 'm', created: 1, choices: [{ index: 0, delta: { content: 'a' } }], usage: usage(1) },
      { id: 'c', model: 'm', created: 1, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: null },
      { id: 'c', model: 'm', created: 1, choices: [], usage: usage(2) },
    ]);
    expect(events.filter((event) => event.type === 'finish')).toEqual([
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: 5, outputTokens: 2 } },
    ]);
  });

  it('reports an error at end() only once, and none after an in-stream error', () => {
    const decoder = new OpenAIChatStreamDecoder();
    expect(decoder.end().map((event) => event.type)).toEqual(['error']);
    expect(decoder.end()).toEqual([]);
    const failed = new OpenAIChatStreamDecoder();
    const [error] = failed.push({ error: { message: 'overloaded' } });
    expect(error?.type === 'error' && error.error.retryable).toBe(true);
    expect(failed.end()).toEqual([]);
  });
});
