import { GatewayError, type StreamEvent } from '@rosetta/canonical';
import { fixtureLines, inPieces } from './__fixtures__/load-fixture';
import { geminiPassThroughFraming } from './gemini-pass-through-framing';
import { GeminiStreamScanner } from './gemini-stream-scanner';
import { parseGeminiJsonArray } from './parse-gemini-json-array';
import { parseGeminiSSE } from './parse-gemini-sse';

const OPTIONS = { id: 'gw-request-1', model: 'rosetta/gemini-2.5-flash' };

/** The recorded stream scanned and written by the framing, in the client's framing. */
function relay(name: string, sse: boolean, extra: StreamEvent[] = []): string {
  const scanner = new GeminiStreamScanner();
  const framing = geminiPassThroughFraming(OPTIONS, sse);
  const events = [...fixtureLines(`${name}.chunks.jsonl`).flatMap((chunk) => scanner.push({ data: JSON.stringify(chunk), final: false })), ...scanner.end(), ...extra];
  return `${framing.open ?? ''}${events.map((event) => framing.encode(event)).join('')}${framing.close?.() ?? ''}`;
}

async function collect(source: AsyncIterable<unknown>): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const item of source) items.push(item);
  return items;
}

/** Each recorded chunk as the client must see it: the gateway's envelope, the rest as it came. */
const expected = (name: string) => fixtureLines(`${name}.chunks.jsonl`).map((chunk) => ({ ...(chunk as object), modelVersion: OPTIONS.model, responseId: OPTIONS.id }));

describe('GeminiPassThroughFraming', () => {
  it('writes each chunk as a ?alt=sse event, byte for byte up to the envelope, which is the gateway id and the served model', () => {
    const text = relay('gemini-thinking', true);
    const recorded = fixtureLines('gemini-thinking.chunks.jsonl').map((chunk) => JSON.stringify(chunk));
    const events = text.split('\r\n\r\n').filter(Boolean);
    expect(events).toHaveLength(recorded.length);
    for (const [i, event] of events.entries()) {
      const upstream = recorded[i]!;
      expect(event).toEqual(`data: ${upstream.slice(0, upstream.indexOf('"modelVersion"'))}"modelVersion":"rosetta/gemini-2.5-flash","responseId":"gw-request-1"}`);
    }
  });

  it.each(['gemini-text', 'gemini-tool-call', 'gemini-parallel-tool-calls', 'gemini-blocked-prompt'])('gives an SSE client and a JSON-array client the same chunks of %s', async (name) => {
    expect(await collect(parseGeminiSSE(inPieces(relay(name, true))))).toEqual(expected(name));
    const array = relay(name, false);
    expect(JSON.parse(array)).toEqual(expected(name));
    expect(await collect(parseGeminiJsonArray(inPieces(array)))).toEqual(expected(name));
  });

  it('ends an upstream error with the error chunk as the full encoder writes it: unframed for SSE, an element of the array', () => {
    const error = { error: { code: 502, message: 'Upstream service error: The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } };
    const sse = relay('gemini-error', true).split('\r\n\r\n');
    expect(sse.at(-1)).toEqual(`${JSON.stringify(error)}\n`);
    const array = JSON.parse(relay('gemini-error', false)) as unknown[];
    expect(array.at(-1)).toEqual(error);
    expect(array).toHaveLength(2);
  });

  it('writes nothing after its finish or its error', () => {
    const late: StreamEvent = { type: 'error', error: new GatewayError('upstream_error', 'too late', { status: 502 }) };
    expect(relay('gemini-text', true, [late])).toEqual(relay('gemini-text', true));
  });

  it('serialises a chunk again when it does not end with the envelope as Google writes it', () => {
    const framing = geminiPassThroughFraming(OPTIONS, true);
    const data = { responseId: 'up-1', candidates: [{ content: { role: 'model', parts: [{ text: 'hi' }] }, index: 0 }] };
    const text = framing.encode({ type: 'wire', text: '', payload: JSON.stringify(data), data, content: true, outputChars: 2 });
    expect(text).toEqual(`data: ${JSON.stringify({ ...data, responseId: OPTIONS.id, modelVersion: OPTIONS.model })}\r\n\r\n`);
  });
});

describe('GeminiPassThroughFraming, a chunk the upstream spread over several data lines', () => {
  it('writes it as one line', () => {
    const framing = geminiPassThroughFraming(OPTIONS, true);
    const data = { candidates: [{ content: { role: 'model', parts: [{ text: 'hi' }] }, index: 0 }], modelVersion: 'up', responseId: 'up-1' };
    const payload = JSON.stringify(data).replace('"candidates":', '"candidates":\n');
    const text = framing.encode({ type: 'wire', text: '', payload, data, content: true, outputChars: 2 });
    expect(text).toEqual(`data: ${JSON.stringify({ ...data, modelVersion: OPTIONS.model, responseId: OPTIONS.id })}\r\n\r\n`);
  });
});

describe("GeminiPassThroughFraming, chunks in Google's own layout", () => {
  it('replaces the envelope in place, in the same layout, and forwards the rest byte for byte', () => {
    const framing = geminiPassThroughFraming(OPTIONS, true);
    // As Google's API writes a chunk: a space after each colon, none after commas.
    const head = '{"candidates": [{"content": {"parts": [{"text": "Bonjour"}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 4,"totalTokenCount": 4}';
    const payload = `${head},"modelVersion": "gemini-2.5-flash","responseId": "AbC-123_x"}`;
    const text = framing.encode({ type: 'wire', text: '', payload, data: JSON.parse(payload), content: true, outputChars: 7 });
    expect(text).toEqual(`data: ${head},"modelVersion": "rosetta/gemini-2.5-flash","responseId": "gw-request-1"}\r\n\r\n`);
    expect(JSON.parse(text.slice('data: '.length))).toEqual({ ...JSON.parse(payload), modelVersion: OPTIONS.model, responseId: OPTIONS.id });
  });
});
