import { GatewayError, type CanonicalRequest, type StreamEvent, type TranslationWarning } from '@rosetta/canonical';
import type { HttpTransport, UpstreamResponse } from './http-transport';
import type { UpstreamCall } from './provider-adapter';
import { parseRetryAfter, sanitizeUpstreamMessage, upstreamHttpError } from './upstream-error';

/**
 * What every adapter does around its codec: POST the wire body, and turn a non-2xx answer into a
 * sanitised upstream_error (the provider's key never reaches the caller).
 */
export async function postToUpstream(
  transport: HttpTransport,
  call: UpstreamCall,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  parseError: (text: string) => { message: string },
): Promise<UpstreamResponse> {
  const response = await transport.postJson(url, headers, body, { signal: call.signal, timeouts: call.target.timeouts });
  if (response.status >= 200 && response.status < 300) return response;
  const text = await response.body.text().catch(() => '');
  throw upstreamHttpError(response.status, parseError(text).message, {
    retryAfterMs: parseRetryAfter(response.headers),
    secrets: [call.target.apiKey],
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
  const clean = (events: StreamEvent[]): StreamEvent[] => events.map((e) => (e.type === 'error' ? sanitizeErrorEvent(e.error, secrets) : e));
  for await (const chunk of chunks) yield* clean(decoder.push(chunk));
  yield* clean(decoder.end());
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
export function requireHonoured<T>(request: CanonicalRequest, converted: { value: T; warnings: TranslationWarning[] }): { value: T; warnings: TranslationWarning[] } {
  if (request.routing.requireParameters && converted.warnings.length > 0) {
    const features = [...new Set(converted.warnings.map((w) => w.feature))].join(', ');
    throw new GatewayError('invalid_request_error', `provider_require_parameters is set and the chosen upstream cannot honour: ${features}`, {
      param: 'provider_require_parameters',
      retryable: true,
    });
  }
  return converted;
}
