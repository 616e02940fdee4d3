import type { StreamEvent } from '@rosetta/canonical';
import { fixtureJson, fixtureLines, serializeEvents, type SerializedEvent } from './__fixtures__/load-fixture';
import { GeminiStreamDecoder } from './gemini-stream-decoder';

function decode(chunks: unknown[]): StreamEvent[] {
  const decoder = new GeminiStreamDecoder();
  return [...chunks.flatMap((chunk) => decoder.push(chunk)), ...decoder.end()];
}

const text = (value: string, extra: Record<string, unknown> = {}) => ({ text: value, ...extra });
const chunk = (parts: unknown[], finishReason?: string) => ({
  candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}) }],
  responseId: 'r',
  modelVersion: 'm',
});

describe('GeminiStreamDecoder', () => {
  beforeAll(() => {
    // `created` is the arrival time when Gemini sends no createTime.
    jest.useFakeTimers({ now: new Date('2025-01-15T10:00:00Z') });
  });

  afterAll(() => {
    jest.useRealTimers();
  });

  it.each([
    ['gemini-text', 'text in three chunks, usage on each'],
    ['gemini-thinking', 'thoughts then text, its signature on a final empty part, cached and thought tokens'],
    ['gemini-tool-call', 'text then a whole signed function call under STOP'],
    ['gemini-max-tokens', 'the output cap'],
    ['gemini-safety', 'a safety stop mid-answer, in a chunk without content'],
    ['gemini-blocked-prompt', 'a blocked prompt: no candidates, only promptFeedback'],
    ['gemini-error', 'an in-stream error chunk'],
    ['gemini-stream-cut', 'a stream cut before any finishReason'],
  ])('decodes %s (%s)', (name) => {
    const events = decode(fixtureLines(`${name}.chunks.jsonl`));
    expect(serializeEvents(events)).toEqual(fixtureJson<SerializedEvent[]>(`${name}.events.json`));
  });

  it('names calls the upstream left unnamed, one id each, and lets the calls decide the reason', () => {
    const expected = fixtureJson<SerializedEvent[]>('gemini-parallel-tool-calls.events.json').map((event) =>
      event.type === 'tool-call-start' ? { ...event, id: expect.stringMatching(/^call_[0-9a-f]{32}$/) } : event,
    );
    const events = decode(fixtureLines('gemini-parallel-tool-calls.chunks.jsonl'));
    expect(events).toEqual(expected);
    const ids = events.flatMap((event) => (event.type === 'tool-call-start' ? [event.id] : []));
    expect(new Set(ids).size).toBe(2);
  });

  it('starts a new block for a second signature, and lets another kind of part close the open block', () => {
    const events = decode([
      chunk([text('A', { thoughtSignature: 's1' }), text('B'), text('', { thoughtSignature: 's2' }), text('C')]),
      chunk([{ inlineData: { mimeType: 'image/png', data: 'x' } }, text('D')]),
      chunk([{ thought: true, thoughtSignature: 's3' }], 'STOP'),
    ]);
    expect(events.slice(1)).toEqual([
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'A' },
      { type: 'text-delta', index: 0, text: 'B' },
      { type: 'text-end', index: 0, signature: { protocol: 'gemini', value: 's1' } },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, text: 'C' },
      { type: 'text-end', index: 1, signature: { protocol: 'gemini', value: 's2' } },
      { type: 'text-start', index: 2 },
      { type: 'text-delta', index: 2, text: 'D' },
      { type: 'text-end', index: 2 },
      { type: 'thinking-start', index: 3 },
      { type: 'thinking-end', index: 3, signature: { protocol: 'gemini', value: 's3' } },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'STOP' } },
    ]);
  });

  it('makes up a response id when none came, keeps the last usage, and ignores content after the finish', () => {
    const decoder = new GeminiStreamDecoder();
    const [start] = decoder.push({ candidates: [{ content: { parts: [text('Hi')] } }] });
    expect(start).toEqual({ type: 'start', id: expect.stringMatching(/^gemini-[0-9a-f]{32}$/), model: '', created: 1736935200 });
    decoder.push(chunk([], 'STOP'));
    expect(decoder.push({ ...chunk([text('late')]), usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 1 } })).toEqual([]);
    expect(decoder.end()).toEqual([{ type: 'finish', finishReason: { unified: 'stop', raw: 'STOP' }, usage: { inputTokens: 2, outputTokens: 1 } }]);
    expect(decoder.end()).toEqual([]);
  });

  it('reports an error at end() only once, none after an in-stream error, and a retryable error chunk', () => {
    const decoder = new GeminiStreamDecoder();
    expect(decoder.end().map((event) => event.type)).toEqual(['error']);
    expect(decoder.end()).toEqual([]);
    const failed = new GeminiStreamDecoder();
    const [error] = failed.push({ error: { code: 500, message: 'Internal error', status: 'INTERNAL' } });
    expect(error?.type === 'error' && [error.error.retryable, error.error.message]).toEqual([true, 'Upstream service error: Internal error']);
    expect(failed.push(chunk([text('x')], 'STOP'))).toEqual([]);
    expect(failed.end()).toEqual([]);
  });
});
