/**
 * Upstream SSE bytes → parse → decode → encode → client framing, then re-parsed: a Gemini client
 * must see the same text, thoughts, calls, signatures, finish reason and usage the upstream
 * sent. Then the client sends the reply back as history, as the Gemini SDK records it (one
 * content per chunk), and it must reach Gemini again as the upstream produced it.
 */
import type { StreamEvent } from '@rosetta/canonical';
import { collect, fixtureLines, inPieces } from './__fixtures__/load-fixture';
import { convertGeminiRequest } from './convert-gemini-request';
import { convertToGeminiRequest } from './convert-to-gemini-request';
import { GeminiStreamDecoder } from './gemini-stream-decoder';
import { GeminiStreamEncoder } from './gemini-stream-encoder';
import { formatGeminiSSE, GeminiJsonArrayWriter } from './gemini-stream-framing';
import { normalizeGeminiRequest } from './normalize-gemini-request';
import { parseGeminiJsonArray } from './parse-gemini-json-array';
import { parseGeminiSSE } from './parse-gemini-sse';

interface WirePart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name: string; args: Record<string, unknown> };
}
interface WireChunk {
  candidates?: { content?: { parts?: WirePart[] }; finishReason?: string }[];
  usageMetadata?: Record<string, number>;
}

interface Accumulated {
  text: string;
  thoughts: string;
  signatures: string[];
  calls: { name: string; args: Record<string, unknown> }[];
  finishReason?: string;
  usage?: { prompt: number; candidates: number; thoughts: number; cached: number };
}

/** What a Gemini client makes of a stream, in the manner of the SDK's `response.text`. */
function accumulate(chunks: unknown[]): Accumulated {
  const out: Accumulated = { text: '', thoughts: '', signatures: [], calls: [] };
  for (const chunk of chunks as WireChunk[]) {
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (part.thoughtSignature) out.signatures.push(part.thoughtSignature);
      if (part.functionCall) out.calls.push({ name: part.functionCall.name, args: part.functionCall.args });
      else if (part.thought) out.thoughts += part.text ?? '';
      else out.text += part.text ?? '';
    }
    out.finishReason = candidate?.finishReason ?? out.finishReason;
    const usage = chunk.usageMetadata;
    if (usage) {
      out.usage = {
        prompt: usage['promptTokenCount'] ?? 0,
        candidates: usage['candidatesTokenCount'] ?? 0,
        thoughts: usage['thoughtsTokenCount'] ?? 0,
        cached: usage['cachedContentTokenCount'] ?? 0,
      };
    }
  }
  return out;
}

async function relay(upstream: unknown[], framing: 'sse' | 'array'): Promise<unknown[]> {
  const decoder = new GeminiStreamDecoder();
  const encoder = new GeminiStreamEncoder({ id: 'resp-r', model: 'rosetta/gemini' });
  const upstreamText = upstream.map(formatGeminiSSE).join('');
  const events: StreamEvent[] = [];
  for await (const chunk of parseGeminiSSE(inPieces(upstreamText))) events.push(...decoder.push(chunk));
  events.push(...decoder.end());
  const chunks = events.flatMap((event) => encoder.encode(event));
  if (framing === 'sse') return collect(parseGeminiSSE(inPieces(chunks.map(formatGeminiSSE).join(''), [13, 2, 29])));
  const writer = new GeminiJsonArrayWriter();
  const text = writer.open() + chunks.map((chunk) => writer.item(chunk)).join('') + writer.close();
  return collect(parseGeminiJsonArray(inPieces(text, [13, 2, 29])));
}

const CASES = ['gemini-text', 'gemini-thinking', 'gemini-tool-call', 'gemini-parallel-tool-calls', 'gemini-max-tokens', 'gemini-safety'];

describe('Gemini stream round trip', () => {
  it.each(CASES.flatMap((name) => [[name, 'sse'] as const, [name, 'array'] as const]))(
    '%s reaches the client unchanged in substance (%s framing)',
    async (name, framing) => {
      const upstream = fixtureLines(`${name}.chunks.jsonl`);
      const client = accumulate(await relay(upstream, framing));
      expect(client).toEqual(accumulate(upstream));
      expect(client.finishReason).toBeDefined();
      expect(client.usage).toBeDefined();
    },
  );

  it('sends a streamed reply, recorded as history chunk by chunk, back to Gemini as it came', async () => {
    const upstream = fixtureLines('gemini-thinking.chunks.jsonl');
    const client = (await relay(upstream, 'sse')) as WireChunk[];
    const history = client.map((chunk) => ({ role: 'model', parts: chunk.candidates?.[0]?.content?.parts ?? [] }));
    const body = normalizeGeminiRequest({ contents: [{ role: 'user', parts: [{ text: 'What is 6 × 7?' }] }, ...history] });
    const { passthrough: _passthrough, ...request } = convertGeminiRequest({ body, model: 'rosetta/gemini' }).value;
    expect(request.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', text: '**Working it out**\nSix times seven is 42.' },
        { type: 'text', text: 'The answer is 42.', signature: { protocol: 'gemini', value: 'CpcBsigStream==' } },
      ],
    });
    expect(convertToGeminiRequest({ request, upstreamModel: 'gemini-2.5-pro' }).value['contents']).toEqual([
      { role: 'user', parts: [{ text: 'What is 6 × 7?' }] },
      { role: 'model', parts: [{ text: 'The answer is 42.', thoughtSignature: 'CpcBsigStream==' }] },
    ]);
  });

  it('relays an upstream error as a Google error chunk, and nothing after it', async () => {
    const client = await relay(fixtureLines('gemini-error.chunks.jsonl'), 'sse');
    expect(client[client.length - 1]).toEqual({
      error: { code: 502, message: 'Upstream service error: The model is overloaded. Please try again later.', status: 'UNAVAILABLE' },
    });
  });
});
