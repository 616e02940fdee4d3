import { GatewayError, type StreamEvent } from '@rosetta/canonical';
import { fixtureLines, sseDataFrames } from './__fixtures__/load-fixture';
import { OpenAIChatPassThroughFraming } from './openai-chat-pass-through-framing';
import { OpenAIChatStreamScanner } from './openai-chat-stream-scanner';

const OPTIONS = { id: 'chatcmpl-gw1', model: 'rosetta/gpt-4o-mini', created: 1800000000, includeUsage: true };

/** The recorded stream scanned, its usage priced as the gateway prices it, and written by the framing. */
function relay(name: string, options = OPTIONS, costUsd = 0.00042): string {
  const scanner = new OpenAIChatStreamScanner();
  const framing = new OpenAIChatPassThroughFraming(options);
  const events = [...fixtureLines(`${name}.chunks.jsonl`).flatMap((chunk) => scanner.push({ data: typeof chunk === 'string' ? chunk : JSON.stringify(chunk), final: false })), ...scanner.end()];
  return events.map((event: StreamEvent) => framing.encode(event.type === 'usage' ? { ...event, usage: { ...event.usage, costUsd } } : event)).join('');
}

describe('OpenAIChatPassThroughFraming', () => {
  it('writes each chunk byte for byte after the envelope, which is the gateway id, created and the served model', () => {
    const text = relay('openai-text');
    const recorded = fixtureLines('openai-text.chunks.jsonl').map((chunk) => JSON.stringify(chunk));
    const frames = text.split('\n\n').filter(Boolean);
    const envelope = '{"id":"chatcmpl-gw1","object":"chat.completion.chunk","created":1800000000,"model":"rosetta/gpt-4o-mini",';
    // Every content chunk keeps the upstream's own bytes after the envelope (system_fingerprint, logprobs, usage: null).
    for (const [i, frame] of frames.slice(0, 5).entries()) {
      const upstream = recorded[i]!;
      expect(frame).toEqual(`data: ${envelope}${upstream.slice(upstream.indexOf('"system_fingerprint"'))}`);
    }
    expect(frames.at(-1)).toEqual('data: [DONE]');
  });

  it('puts the cost in the usage chunk the client asked for, keeping the upstream usage as it is', () => {
    const usageChunk = sseDataFrames(relay('openai-text')).at(-2) as Record<string, unknown>;
    const upstream = fixtureLines('openai-text.chunks.jsonl').at(-1) as Record<string, unknown>;
    expect(usageChunk).toEqual({ ...upstream, id: 'chatcmpl-gw1', created: 1800000000, model: 'rosetta/gpt-4o-mini', usage: { ...(upstream['usage'] as object), cost: 0.00042 } });
  });

  it('drops the usage chunk the gateway asked for when the client did not', () => {
    const frames = sseDataFrames(relay('openai-text', { ...OPTIONS, includeUsage: false }));
    expect(frames.filter((f) => typeof f === 'object' && f !== null && (f as Record<string, unknown>)['usage'] !== null)).toEqual([]);
    expect(frames.at(-1)).toEqual('[DONE]');
  });

  it('nulls usage that rides on a choice chunk when the client did not ask for it', () => {
    const frames = sseDataFrames(relay('openai-reasoning', { ...OPTIONS, includeUsage: false }));
    expect(frames.some((f) => typeof f === 'object' && f !== null && (f as Record<string, unknown>)['usage'] !== null)).toBe(false);
  });

  it('ends a failed stream with the in-stream error and no [DONE]', () => {
    const framing = new OpenAIChatPassThroughFraming(OPTIONS);
    const cut = new GatewayError('upstream_error', 'Upstream service error: the stream stalled', { status: 502 });
    expect(framing.encode({ type: 'error', error: cut }) + framing.encode({ type: 'finish', finishReason: { unified: 'stop' } })).toEqual(
      `data: ${JSON.stringify({ error: { message: cut.message, type: 'upstream_error', code: null, param: null } })}\n\n`,
    );
  });

  it('serialises a chunk again when its envelope is not laid out as OpenAI lays it out', () => {
    const framing = new OpenAIChatPassThroughFraming(OPTIONS);
    const data = { model: 'm', id: 'x', choices: [{ index: 0, delta: { content: 'hi' } }] };
    const text = framing.encode({ type: 'wire', text: `data: ${JSON.stringify(data)}\n\n`, payload: JSON.stringify(data), data, content: true, outputChars: 2 });
    expect(sseDataFrames(text)).toEqual([{ ...data, id: 'chatcmpl-gw1', model: 'rosetta/gpt-4o-mini', created: 1800000000 }]);
  });
});
