/**
 * The four client dialects at the wire level, for tests that must see the raw outcome (status,
 * headers, every byte of a stream, how it ended) rather than what an SDK makes of it.
 */
export type Dialect = 'openai' | 'anthropic' | 'gemini' | 'openai-responses';

export interface DialectCall {
  dialect: Dialect;
  model: string;
  /** The `models` fallback chain after `model`. */
  fallbacks?: string[];
  text: string;
  stream: boolean;
  headers?: Record<string, string>;
}

export interface RawExchange {
  status?: number;
  headers?: Headers;
  /** Everything received, even when the exchange did not complete. */
  body: string;
  /** Why the exchange did not complete: `hung` (the guard fired) or the transport failure. */
  failure?: string;
}

export function dialectRequest(baseUrl: string, key: string, call: DialectCall): { url: string; init: RequestInit } {
  const routing = call.fallbacks ? { models: call.fallbacks } : {};
  const json = { 'content-type': 'application/json', ...call.headers };
  switch (call.dialect) {
    case 'openai':
      return {
        url: `${baseUrl}/v1/chat/completions`,
        init: { method: 'POST', headers: { ...json, authorization: `Bearer ${key}` }, body: JSON.stringify({ model: call.model, stream: call.stream, messages: [{ role: 'user', content: call.text }], ...routing }) },
      };
    case 'anthropic':
      return {
        url: `${baseUrl}/v1/messages`,
        init: {
          method: 'POST',
          headers: { ...json, 'x-api-key': key, 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ model: call.model, max_tokens: 256, stream: call.stream, messages: [{ role: 'user', content: call.text }], ...routing }),
        },
      };
    case 'openai-responses':
      return {
        url: `${baseUrl}/v1/responses`,
        init: { method: 'POST', headers: { ...json, authorization: `Bearer ${key}` }, body: JSON.stringify({ model: call.model, stream: call.stream, input: call.text, ...routing }) },
      };
    case 'gemini': {
      const method = call.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
      return {
        url: `${baseUrl}/v1beta/models/${call.model}:${method}`,
        init: { method: 'POST', headers: { ...json, 'x-goog-api-key': key }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: call.text }] }], ...routing }) },
      };
    }
  }
}

/**
 * Sends one call and reads the whole answer. `guardMs` only detects a hang: when it fires the
 * exchange is reported as `hung` with whatever had arrived.
 */
export async function callDialect(baseUrl: string, key: string, call: DialectCall, guardMs: number): Promise<RawExchange> {
  const { url, init } = dialectRequest(baseUrl, key, call);
  const controller = new AbortController();
  const guard = setTimeout(() => controller.abort(), guardMs);
  const seen: RawExchange = { body: '' };
  try {
    const res = await fetch(url, { ...init, signal: controller.signal });
    seen.status = res.status;
    seen.headers = res.headers;
    const decoder = new TextDecoder();
    for await (const chunk of res.body ?? []) seen.body += decoder.decode(chunk as Uint8Array, { stream: true });
    return seen;
  } catch (error) {
    return { ...seen, failure: controller.signal.aborted ? 'hung' : transportFailure(error) };
  } finally {
    clearTimeout(guard);
  }
}

function transportFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${(error.cause as NodeJS.ErrnoException).code ?? error.cause.message}` : '';
  return `${error.message}${cause}`;
}

type Json = Record<string, any>;

function parse(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

const str = (value: unknown): value is string => typeof value === 'string';

export interface ErrorEnvelope {
  type: string;
  message: string;
}

/** The dialect's error envelope with a top-level `request_id` equal to the header, or what is wrong with it. */
export function readErrorEnvelope(dialect: Dialect, status: number, body: string, requestId: string | null): ErrorEnvelope | string {
  const json = parse(body);
  const error = json?.['error'] as Json | undefined;
  if (!json || !error) return `not an error envelope: ${body.slice(0, 200)}`;
  if (json['request_id'] !== requestId) return `request_id ${String(json['request_id'])} is not the x-request-id ${String(requestId)}`;
  const native: Record<Dialect, boolean> = {
    openai: 'code' in error && 'param' in error,
    'openai-responses': 'code' in error && 'param' in error,
    anthropic: json['type'] === 'error',
    gemini: error['code'] === status && str(error['status']),
  };
  if (!native[dialect] || !str(error['type']) || !str(error['message'])) return `not the ${dialect} envelope: ${body.slice(0, 200)}`;
  return { type: error['type'], message: error['message'] };
}

export interface Answer {
  text: string;
  finish: unknown;
}

/** The text and finish of a non-streamed success, or undefined when the body is not one. */
export function readAnswer(dialect: Dialect, body: string): Answer | undefined {
  const json = parse(body);
  if (!json) return undefined;
  if (dialect === 'openai') return { text: json['choices']?.[0]?.message?.content ?? '', finish: json['choices']?.[0]?.finish_reason };
  if (dialect === 'anthropic') return { text: textOf(json['content']), finish: json['stop_reason'] };
  if (dialect === 'openai-responses') return { text: responseText(json), finish: json['status'] };
  return { text: textOf(json['candidates']?.[0]?.content?.parts), finish: json['candidates']?.[0]?.finishReason };
}

function responseText(response: Json): string {
  const output = Array.isArray(response['output']) ? (response['output'] as Json[]) : [];
  return output.filter((item) => item['type'] === 'message').map((item) => textOf(item['content'])).join('');
}

function textOf(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  return (parts as Json[]).filter((part) => str(part['text']) && part['thought'] !== true && part['type'] !== 'thinking').map((part) => part['text'] as string).join('');
}

/** How a stream ended: a finish, an in-stream error, nothing (truncated), or not in the dialect's form. */
export type StreamEnding =
  | { kind: 'finished'; text: string; finish: string }
  | { kind: 'error'; text: string; message: string; afterFinish?: string }
  | { kind: 'truncated'; text: string }
  | { kind: 'malformed'; detail: string };

interface Frame {
  event?: string;
  /** The joined `data:` lines, or the frame's whole text when it has none. */
  data: string;
  /** No `data:` line: valid only as Gemini's in-stream error, a bare error JSON (what @google/genai detects). */
  bare: boolean;
}

function frames(body: string): Frame[] {
  return body
    .split(/\r?\n\r?\n/)
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const lines = frame.split(/\r?\n/).filter((line) => !line.startsWith(':'));
      const event = lines.find((line) => line.startsWith('event:'))?.slice('event:'.length).trim();
      const dataLines = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice('data:'.length).trimStart());
      const bare = dataLines.length === 0;
      return { event, data: bare ? lines.join('\n') : dataLines.join('\n'), bare };
    });
}

type Step = { text?: string; finish?: string; error?: string; ignore?: boolean; failed?: string } | undefined;

/** One parsed frame's meaning; undefined when it is not valid in the dialect. */
function step(dialect: Dialect, frame: Frame): Step {
  if (dialect === 'openai' && frame.data === '[DONE]') return { ignore: true };
  const json = parse(frame.data);
  if (!json || (frame.bare && !(dialect === 'gemini' && json['error']))) return undefined;
  if (dialect === 'anthropic') {
    const type = frame.event ?? json['type'];
    if (type === 'error') return { error: json['error']?.message ?? '' };
    if (type === 'content_block_delta' && json['delta']?.type === 'text_delta') return { text: json['delta'].text };
    if (type === 'message_delta' && str(json['delta']?.stop_reason)) return { finish: json['delta'].stop_reason };
    return {};
  }
  if (dialect === 'openai-responses') return responsesStep(frame.event ?? json['type'], json);
  if (json['error']) return { error: json['error']?.message ?? '' };
  if (dialect === 'openai') {
    const choice = json['choices']?.[0];
    return { text: choice?.delta?.content ?? undefined, finish: choice?.finish_reason ?? undefined };
  }
  const candidate = json['candidates']?.[0];
  return { text: textOf(candidate?.content?.parts) || undefined, finish: candidate?.finishReason ?? undefined };
}

/** A Responses event: text deltas, the terminal event's status, `error` (its `response.failed` follows). */
function responsesStep(type: string, json: Json): Step {
  if (json['type'] !== type) return undefined;
  if (type === 'response.output_text.delta') return { text: json['delta'] };
  if (type === 'response.completed' || type === 'response.incomplete') return { finish: json['response']?.status };
  if (type === 'error') return { error: json['message'] ?? '' };
  if (type === 'response.failed') return { failed: json['response']?.error?.message ?? '' };
  return {};
}

export function readStream(dialect: Dialect, body: string): StreamEnding {
  let text = '';
  let finish: string | undefined;
  let error: string | undefined;
  let failed = false;
  for (const frame of frames(body)) {
    const meaning = step(dialect, frame);
    if (!meaning) return { kind: 'malformed', detail: `not a ${dialect} stream event: ${frame.data.slice(0, 120)}` };
    if (meaning.ignore) continue;
    // A Responses stream names its error twice: the `error` event, then the failed response.
    if (meaning.failed !== undefined && error !== undefined && !failed) {
      failed = true;
      continue;
    }
    if (error !== undefined) return { kind: 'malformed', detail: `an event after the in-stream error: ${frame.data.slice(0, 120)}` };
    if (meaning.failed !== undefined) return { kind: 'malformed', detail: 'a failed response without its error event' };
    if (meaning.error !== undefined) error = meaning.error;
    if (meaning.text) text += meaning.text;
    if (meaning.finish) finish = meaning.finish;
  }
  if (dialect === 'openai-responses' && error !== undefined && !failed) return { kind: 'malformed', detail: 'an error event without the failed response after it' };
  if (error !== undefined) return finish === undefined ? { kind: 'error', text, message: error } : { kind: 'error', text, message: error, afterFinish: finish };
  return finish === undefined ? { kind: 'truncated', text } : { kind: 'finished', text, finish };
}
