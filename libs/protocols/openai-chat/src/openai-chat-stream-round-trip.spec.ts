/**
 * Upstream SSE bytes → parse → decode → encode → client SSE, then re-parsed: the client must see
 * the same text, thinking, refusal, tool calls, finish reason and usage as the upstream sent.
 */
import type { StreamEvent } from '@rosetta/canonical';
import { fixtureLines } from './__fixtures__/load-fixture';
import { OpenAIChatStreamDecoder } from './openai-chat-stream-decoder';
import { OpenAIChatStreamEncoder } from './openai-chat-stream-encoder';
import { parseOpenAIChatSSE } from './parse-openai-chat-sse';

interface Accumulated {
  role?: string;
  content: string;
  reasoning: string;
  refusal: string;
  toolCalls: { id?: string; name?: string; arguments: string }[];
  finishReason?: string;
  usage?: { prompt: number; completion: number; cached: number; reasoning: number };
}

/** A deliberately small chunk accumulator, in the manner of openai-node's ChatCompletionStream. */
function accumulate(chunks: unknown[]): Accumulated {
  const out: Accumulated = { content: '', reasoning: '', refusal: '', toolCalls: [] };
  for (const chunk of chunks as WireChunk[]) {
    if (chunk.usage) {
      const u = chunk.usage;
      out.usage = {
        prompt: u.prompt_tokens,
        completion: u.completion_tokens,
        cached: u.prompt_tokens_details?.cached_tokens ?? 0,
        reasoning: u.completion_tokens_details?.reasoning_tokens ?? 0,
      };
    }
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const { delta } = choice;
    out.role ??= delta.role;
    out.content += delta.content ?? '';
    out.reasoning += delta.reasoning_content ?? '';
    out.refusal += delta.refusal ?? '';
    for (const call of delta.tool_calls ?? []) {
      const slot = (out.toolCalls[call.index] ??= { arguments: '' });
      slot.id ??= call.id;
      slot.name ??= call.function?.name;
      slot.arguments += call.function?.arguments ?? '';
    }
    out.finishReason = choice.finish_reason ?? out.finishReason;
  }
  return out;
}

interface WireChunk {
  choices?: {
    delta: {
      role?: string;
      content?: string | null;
      reasoning_content?: string | null;
      refusal?: string | null;
      tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason: string | null;
  }[];
  usage?: {
    prompt_tokens: number;
    completion_tokens: number;
    prompt_tokens_details?: { cached_tokens?: number };
    completion_tokens_details?: { reasoning_tokens?: number };
  } | null;
}

/** The SSE bytes an upstream would send, cut into uneven pieces to exercise reassembly. */
async function* upstreamBytes(chunks: unknown[]): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n');
  for (let offset = 0, size = 7; offset < bytes.length; offset += size, size = (size * 3) % 41 + 5) {
    yield bytes.slice(offset, offset + size);
  }
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

async function relay(upstream: unknown[]): Promise<unknown[]> {
  const decoder = new OpenAIChatStreamDecoder();
  const encoder = new OpenAIChatStreamEncoder({ id: 'chatcmpl-r', model: 'rosetta/x', created: 1, includeUsage: true });
  const events: StreamEvent[] = [];
  for await (const chunk of parseOpenAIChatSSE(upstreamBytes(upstream))) events.push(...decoder.push(chunk));
  events.push(...decoder.end());
  const clientText = events.map((event) => encoder.encode(event)).join('');
  return collect(parseOpenAIChatSSE(once(clientText)));
}

describe('OpenAI stream round trip', () => {
  it.each(['openai-text', 'openai-tool-call', 'openai-parallel-tool-calls', 'openai-reasoning', 'openai-length', 'openai-refusal', 'openai-content-filter'])(
    '%s reaches the client unchanged in substance',
    async (name) => {
      const upstream = fixtureLines(`${name}.chunks.jsonl`);
      const client = accumulate(await relay(upstream));
      expect(client).toEqual({ ...accumulate(upstream), role: 'assistant' });
      expect(client.finishReason).toBeDefined();
      expect(client.usage).toBeDefined();
    },
  );

  it('relays an upstream error as an in-stream error and no [DONE]', async () => {
    const client = await relay(fixtureLines('openai-error.chunks.jsonl'));
    expect(client[client.length - 1]).toEqual({
      error: {
        message: 'Upstream service error: The server had an error while processing your request. Sorry about that!',
        type: 'upstream_error',
        code: null,
        param: null,
      },
    });
  });
});
