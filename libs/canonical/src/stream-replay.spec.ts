import type { CanonicalResponse } from './response';
import type { StreamEvent } from './stream-event';
import { replayEvents, StreamedAnswer } from './stream-replay';

const answer: CanonicalResponse = {
  id: 'msg_1',
  model: 'rosetta/claude-sonnet-4-5',
  created: 1,
  content: [
    { type: 'thinking', text: 'let me see', signature: { protocol: 'anthropic', value: 'sig' } },
    { type: 'text', text: 'Calling the tool.' },
    { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
    { type: 'redacted_thinking', data: 'opaque', protocol: 'anthropic' },
  ],
  finishReason: { unified: 'tool_calls', raw: 'tool_use' },
  usage: { inputTokens: 100, outputTokens: 20, cachedInputTokens: 60 },
};

describe('a whole answer and its stream', () => {
  it('replays every kind of part and puts the stream back together into the same answer', () => {
    const collected = new StreamedAnswer();
    const events = [...replayEvents(answer)];
    for (const event of events) collected.add(event);
    expect(collected.response()).toEqual(answer);
    expect(events[0]).toEqual({ type: 'start', id: 'msg_1', model: answer.model, created: 1, usage: { inputTokens: 100, outputTokens: 0, cachedInputTokens: 60 } });
  });

  it('has no answer for a stream that failed, was forwarded raw, or never finished', () => {
    const events = [...replayEvents(answer)];
    const unfinished = new StreamedAnswer();
    for (const event of events.slice(0, -1)) unfinished.add(event);
    expect(unfinished.response()).toBeUndefined();

    const failed = new StreamedAnswer();
    for (const event of events) failed.add(event);
    failed.add({ type: 'error', error: new Error('cut') } as unknown as StreamEvent);
    expect(failed.response()).toBeUndefined();

    const raw = new StreamedAnswer();
    raw.add({ type: 'wire', text: 'data: {}\n\n', payload: '{}', data: {}, content: true, outputChars: 1 });
    for (const event of events) raw.add(event);
    expect(raw.response()).toBeUndefined();
  });

  it('keeps a refusal as a refusal part', () => {
    const collected = new StreamedAnswer();
    for (const event of replayEvents({ ...answer, content: [{ type: 'refusal', text: 'no' }], finishReason: { unified: 'refusal' } })) collected.add(event);
    expect(collected.response()?.content).toEqual([{ type: 'refusal', text: 'no' }]);
  });
});
