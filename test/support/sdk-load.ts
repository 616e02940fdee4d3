import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { randomBytes } from 'node:crypto';

/**
 * Mixed load through one base URL with the official SDKs — OpenAI, Anthropic and Gemini, streamed
 * and not — each request with an x-request-id of its own (the ledger keeps it as
 * client_request_id) and the SDKs' retries off, so a failure is seen, not hidden by a second try.
 */

/** `ok`; `refused` by a limit or budget (429, 402); `failed` for anything else. */
export type Outcome = 'ok' | 'refused' | 'failed';

export interface LoadRecord {
  /** The x-request-id this request was sent with. */
  id: string;
  call: string;
  key: string;
  startedAt: number;
  /** Set when the response headers arrive, from `headerName` (see SdkLoad). */
  answeredBy?: string;
  endedAt?: number;
  outcome?: Outcome;
  /** The error's HTTP status or message, for a request that did not succeed. */
  error?: string;
}

export interface LoadCall {
  name: string;
  key: string;
  /**
   * Sends one request, its id also at the end of the prompt (so the upstream's record of it names
   * it); `headers` is called with the response headers once they arrive.
   */
  send(id: string, headers: (h: Headers) => void): Promise<void>;
}

export interface CallShape {
  name: string;
  dialect: 'openai' | 'anthropic' | 'gemini';
  stream: boolean;
  model: string;
  prompt: string;
  maxTokens: number;
}

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) void _;
}

/** One call of `shape` on `key` through the ingress at `baseUrl`, with its dialect's SDK. */
export function sdkCall(baseUrl: string, key: string, shape: CallShape): LoadCall {
  const header = (id: string) => ({ headers: { 'x-request-id': id } });
  if (shape.dialect === 'openai') {
    const client = new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
    const body = (id: string) => ({ model: shape.model, max_tokens: shape.maxTokens, messages: [{ role: 'user' as const, content: `${shape.prompt} ${id}` }] });
    return {
      name: shape.name,
      key,
      send: async (id, headers) => {
        if (!shape.stream) return void headers((await client.chat.completions.create(body(id), header(id)).withResponse()).response.headers);
        const { data, response } = await client.chat.completions.create({ ...body(id), stream: true, stream_options: { include_usage: true } }, header(id)).withResponse();
        headers(response.headers);
        await drain(data);
      },
    };
  }
  if (shape.dialect === 'anthropic') {
    const client = new Anthropic({ apiKey: key, baseURL: baseUrl, maxRetries: 0 });
    const body = (id: string) => ({ model: shape.model, max_tokens: shape.maxTokens, messages: [{ role: 'user' as const, content: `${shape.prompt} ${id}` }] });
    return {
      name: shape.name,
      key,
      send: async (id, headers) => {
        if (!shape.stream) return void headers((await client.messages.create(body(id), header(id)).withResponse()).response.headers);
        const { data, response } = await client.messages.create({ ...body(id), stream: true }, header(id)).withResponse();
        headers(response.headers);
        await drain(data);
      },
    };
  }
  // Gemini's SDK gives no response headers: who answered it is read from the ingress's log instead.
  // An explicit fetch: under Jest the SDK cannot find Node's global undici dispatcher otherwise.
  const client = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl, fetch: (input, init) => fetch(input, init) } });
  return {
    name: shape.name,
    key,
    send: async (id) => {
      const request = {
        model: shape.model,
        contents: [{ role: 'user', parts: [{ text: `${shape.prompt} ${id}` }] }],
        config: { maxOutputTokens: shape.maxTokens, httpOptions: { headers: { 'x-request-id': id }, retryOptions: { attempts: 1 } } },
      };
      if (shape.stream) await drain(await client.models.generateContentStream(request));
      else await client.models.generateContent(request);
    },
  };
}

function classify(error: unknown): { outcome: Outcome; error: string } {
  const status = (error as { status?: unknown }).status;
  if (status === 402 || status === 429) return { outcome: 'refused', error: String(status) };
  return { outcome: 'failed', error: typeof status === 'number' ? String(status) : error instanceof Error ? error.message : String(error) };
}

/**
 * `concurrency` loops, each sending the calls in turn (loop i starts at call i) until stopped.
 * `headerName` is a response header that names who answered (e.g. the replica), kept per request.
 */
export class SdkLoad {
  readonly records: LoadRecord[] = [];
  private readonly prefix = `load-${randomBytes(3).toString('hex')}`;
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(private readonly calls: LoadCall[], private readonly headerName: string) {}

  /** One request, recorded; resolves (never rejects) when it has ended either way. */
  async send(call: LoadCall): Promise<LoadRecord> {
    const record: LoadRecord = { id: `${this.prefix}-${this.records.length}`, call: call.name, key: call.key, startedAt: Date.now() };
    this.records.push(record);
    try {
      await call.send(record.id, (headers) => (record.answeredBy = headers.get(this.headerName) ?? undefined));
      record.outcome = 'ok';
    } catch (error) {
      Object.assign(record, classify(error));
    }
    record.endedAt = Date.now();
    return record;
  }

  start(concurrency: number): void {
    this.running = true;
    this.loops = Array.from({ length: concurrency }, async (_, loop) => {
      for (let turn = loop; this.running; turn++) await this.send(this.calls[turn % this.calls.length]!);
    });
  }

  /** Stops starting requests and waits for those under way to end. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  /** Requests answered by `who` (headers in) and not yet ended. */
  inFlightOn(who: string): LoadRecord[] {
    return this.records.filter((r) => r.answeredBy === who && r.endedAt === undefined);
  }
}
