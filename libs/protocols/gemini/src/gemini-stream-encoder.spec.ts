import { GatewayError, type StreamEvent } from '@rosetta/canonical';
import { deserializeEvents, fixtureJson, fixtureLines, type SerializedEvent } from './__fixtures__/load-fixture';
import { GeminiStreamEncoder } from './gemini-stream-encoder';

const OPTIONS = { id: 'resp-rosetta-1', model: 'rosetta/claude-sonnet-4-5' };

function encode(events: StreamEvent[]): Record<string, unknown>[] {
  const encoder = new GeminiStreamEncoder(OPTIONS);
  return events.flatMap((event) => encoder.encode(event));
}

describe('GeminiStreamEncoder', () => {
  it.each([
    ['canonical-streamed-tool-call', 'dialect-c-streamed-tool-call', 'arguments streamed in fragments sent as whole calls, a foreign signature wrapped'],
    ['gemini-thinking', 'dialect-c-thinking', 'thought and text deltas, a signature as its own empty part'],
    ['gemini-tool-call', 'dialect-c-tool-call', 'a signed function call'],
    ['gemini-max-tokens', 'dialect-c-max-tokens', 'the output cap'],
    ['gemini-blocked-prompt', 'dialect-c-blocked-prompt', 'a blocked prompt'],
    ['gemini-error', 'dialect-c-error', 'an error, after which nothing is sent'],
  ])('encodes %s as %s (%s)', (events, chunks) => {
    const canonical = deserializeEvents(fixtureJson<SerializedEvent[]>(`${events}.events.json`));
    expect(encode(canonical)).toEqual(fixtureLines(`${chunks}.chunks.jsonl`));
  });

  it('sends calls never ended with the finish, in block order, and nothing after the finish', () => {
    const encoder = new GeminiStreamEncoder(OPTIONS);
    const events: StreamEvent[] = [
      { type: 'tool-call-start', index: 1, id: 'b', name: 'g', signature: { protocol: 'gemini', value: 'sig' } },
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x":1}' },
    ];
    expect(events.flatMap((event) => encoder.encode(event))).toEqual([]);
    expect(encoder.encode({ type: 'finish', finishReason: { unified: 'length' }, usage: { inputTokens: 1, outputTokens: 2 } })).toEqual([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { functionCall: { id: 'a', name: 'f', args: { x: 1 } } },
                { functionCall: { id: 'b', name: 'g', args: {} }, thoughtSignature: 'sig' },
              ],
            },
            finishReason: 'MAX_TOKENS',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 2, totalTokenCount: 3 },
        modelVersion: OPTIONS.model,
        responseId: OPTIONS.id,
      },
    ]);
    expect(encoder.encode({ type: 'text-delta', index: 2, text: 'late' })).toEqual([]);
  });

  it('writes an error as one Google error chunk and stops', () => {
    const encoder = new GeminiStreamEncoder(OPTIONS);
    expect(encoder.encode({ type: 'refusal-delta', index: 0, text: 'No.' })).toEqual([
      { candidates: [{ content: { role: 'model', parts: [{ text: 'No.' }] }, index: 0 }], modelVersion: OPTIONS.model, responseId: OPTIONS.id },
    ]);
    expect(encoder.encode({ type: 'error', error: new GatewayError('rate_limit_error', 'Slow down.') })).toEqual([
      { error: { code: 429, message: 'Slow down.', status: 'RESOURCE_EXHAUSTED' } },
    ]);
    expect(encoder.encode({ type: 'finish', finishReason: { unified: 'stop' } })).toEqual([]);
  });
});
