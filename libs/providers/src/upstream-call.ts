import { GatewayError, type CanonicalRequest, type StreamEvent, type TranslationWarning } from '@rosetta/canonical';
import { CLAUDE_MIN_THINKING_BUDGET, SseFramer, type StreamScanner } from '@rosetta/protocols/common';
import type { HttpTransport, UpstreamResponse } from './http-transport';
import type { UpstreamLeg } from './provider-adapter';
import { parseRetryAfter, REASONING_REFUSED, sanitizeUpstreamMessage, upstreamHttpError } from './upstream-error';

/**
 * What every adapter does around its codec: POST the wire body (with the attempt's trace context
 * when tracing is on), and turn a non-2xx answer into a sanitised upstream_error (the provider's
 * key never reaches the caller).
 */
export async function postToUpstream(
  transport: HttpTransport,
  call: UpstreamLeg,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  parseError: (text: string, headers: UpstreamResponse['headers']) => { message: string },
  refusesReasoning?: (status: number, text: string) => boolean,
  /** The upstream refused the credentials (401, 403): a cloud token or key pair to drop. */
  onCredentialsRefused?: () => void,
): Promise<UpstreamResponse> {
  const sent = call.traceHeaders ? { ...headers, ...call.traceHeaders } : headers;
  const response = await transport.postJson(url, sent, body, { signal: call.signal, timeouts: call.target.timeouts, dispatcher: call.target.dispatcher });
  if (response.status >= 200 && response.status < 300) return response;
  if (response.status >= 300 && response.status < 400) {
    // Never followed: a redirect could lead a caller-chosen host to an internal address.
    await response.body.dump().catch(() => undefined);
    throw upstreamHttpError(502, `the upstream answered with a redirect (${response.status}), which is not followed`);
  }
  const text = await response.body.text().catch(() => '');
  if (response.status === 401 || response.status === 403) onCredentialsRefused?.();
  const parsed = parseError(text, response.headers) as { message: string; code?: string };
  throw upstreamHttpError(response.status, parsed.message, {
    retryAfterMs: parseRetryAfter(response.headers),
    secrets: [call.target.apiKey],
    // A content filter's refusal (Azure, OpenAI) keeps its code: the caller's SDK and code read it.
    code: refusesReasoning?.(response.status, text) ? REASONING_REFUSED : parsed.code === 'content_filter' ? 'content_filter' : undefined,
  });
}

/** Reads a 2xx JSON body, failing clearly when the upstream sent something else. */
export async function readJson(response: UpstreamResponse): Promise<Record<string, unknown>> {
  const text = await response.body.text();
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw upstreamHttpError(502, 'malformed response body');
}

/**
 * Flattens a protocol's per-chunk decoder over an async source of parsed chunks. Error events
 * carry upstream text, so they are sanitised here like any other upstream error.
 */
export async function* decodeChunks(
  chunks: AsyncIterable<unknown>,
  decoder: { push(chunk: unknown): StreamEvent[]; end(): StreamEvent[] },
  secrets: readonly string[],
): AsyncGenerator<StreamEvent> {
  for await (const chunk of chunks) for (const event of decoder.push(chunk)) yield clean(event, secrets);
  for (const event of decoder.end()) yield clean(event, secrets);
}

/**
 * A same-protocol stream (docs/decisions/0017): framing and scanning in one generator, so a
 * stream waiting for its next chunk holds one suspended step rather than one per stage.
 */
export async function* scanSse(source: AsyncIterable<Uint8Array | string>, scanner: StreamScanner, secrets: readonly string[]): AsyncGenerator<StreamEvent> {
  const framer = new SseFramer();
  for await (const piece of source) {
    for (const frame of framer.feed(piece)) for (const event of scanner.push(frame)) yield clean(event, secrets);
  }
  for (const frame of framer.finish()) for (const event of scanner.push(frame)) yield clean(event, secrets);
  for (const event of scanner.end()) yield clean(event, secrets);
}

function clean(event: StreamEvent, secrets: readonly string[]): StreamEvent {
  return event.type === 'error' ? sanitizeErrorEvent(event.error, secrets) : event;
}

function sanitizeErrorEvent(error: GatewayError, secrets: readonly string[]): StreamEvent {
  const message = sanitizeUpstreamMessage(error.message, secrets);
  if (message === error.message) return { type: 'error', error };
  return {
    type: 'error',
    error: new GatewayError(error.type, message, { status: error.status, retryable: error.retryable, code: error.code, retryAfterMs: error.retryAfterMs }),
  };
}

/**
 * With `provider_require_parameters`, an upstream that would have to drop a feature is refused
 * before it is called. Retryable: another endpoint in the plan may honour everything.
 */
export function requireHonoured<T>(request: Pick<CanonicalRequest, 'routing'>, converted: { value: T; warnings: TranslationWarning[] }): { value: T; warnings: TranslationWarning[] } {
  if (request.routing.requireParameters && converted.warnings.length > 0) {
    const features = [...new Set(converted.warnings.map((w) => w.feature))].join(', ');
    throw new GatewayError('invalid_request_error', `provider_require_parameters is set and the chosen upstream cannot honour: ${features}`, {
      param: 'provider_require_parameters',
      retryable: true,
    });
  }
  return converted;
}

/**
 * Lowers the body's output cap (at the protocol's `fields`) to what the endpoint can give
 * (docs/decisions/0003), on the fast path too, and says so in the warnings. A thinking budget
 * (at `budgetFields`) must stay below the cap — Claude refuses a budget at or above `max_tokens` —
 * so it comes down with it, leaving room for the answer, and thinking is turned off where no
 * budget of Claude's minimum fits. The body is copied where it changes.
 */
export function clampOutputTokens<T extends Record<string, unknown>>(
  fields: ReadonlyArray<readonly string[]>,
  converted: { value: T; warnings: TranslationWarning[] },
  cap: number | undefined,
  budgetFields: ReadonlyArray<readonly string[]> = [],
): { value: T; warnings: TranslationWarning[] } {
  if (cap === undefined) return converted;
  let body: Record<string, unknown> = converted.value;
  const warnings: TranslationWarning[] = [];
  for (const path of fields) {
    const value = valueAt(body, path);
    if (typeof value !== 'number' || value <= cap) continue;
    body = withValueAt(body, path, cap);
    warnings.push({ feature: 'max_tokens', message: `lowered to ${cap}, the most this endpoint can produce` });
  }
  for (const path of budgetFields) {
    const budget = valueAt(body, path);
    if (typeof budget !== 'number' || budget < cap) continue;
    const lowered = Math.max(CLAUDE_MIN_THINKING_BUDGET, cap - CLAUDE_MIN_THINKING_BUDGET);
    if (lowered < cap) {
      body = withValueAt(body, path, lowered);
      warnings.push({ feature: 'thinking', message: `thinking budget lowered from ${budget} to ${lowered}, below this endpoint's output cap of ${cap}` });
    } else {
      body = withValueAt(body, path.slice(0, -1), { type: 'disabled' });
      warnings.push({ feature: 'thinking', message: `thinking disabled: this endpoint's output cap of ${cap} leaves no room for the minimum budget of ${CLAUDE_MIN_THINKING_BUDGET}` });
    }
  }
  if (warnings.length === 0) return converted;
  return { value: body as T, warnings: [...converted.warnings, ...warnings] };
}

function valueAt(body: Record<string, unknown>, path: readonly string[]): unknown {
  let node: unknown = body;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** A copy of `body` with the value at `path` replaced, copying only the objects along the path. */
function withValueAt(body: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) return body;
  if (rest.length === 0) return { ...body, [head]: value };
  const child = body[head];
  return { ...body, [head]: withValueAt(typeof child === 'object' && child !== null && !Array.isArray(child) ? (child as Record<string, unknown>) : {}, rest, value) };
}
