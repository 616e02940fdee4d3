import { GatewayError } from '@rosetta/canonical';
import { vetUpstreamUrl, type HostResolver } from '@rosetta/providers';
import { request, type Dispatcher } from 'undici';
import { SIGNATURE_HEADER, signBody } from './webhook-signature';

export interface SendOptions {
  allowHosts: readonly string[];
  timeoutMs: number;
  /** Tests resolve names themselves. */
  resolve?: HostResolver;
}

/** What one POST came to: `httpStatus` when the receiver answered, `error` (no URL, no secret) otherwise. */
export interface SendResult {
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
  /** Whether trying again could help: not for a 4xx other than 408, 409, 425 and 429. */
  retryable: boolean;
}

const RETRYABLE_4XX = new Set([408, 409, 425, 429]);

/**
 * POSTs a signed body to a webhook. The URL is vetted again at every attempt (its host may resolve
 * elsewhere now) and the connection pinned to the vetted address; redirects are not followed (a 3xx
 * is a failure), and the whole attempt, answer included, is bounded by `timeoutMs`.
 */
export async function sendWebhook(url: string, body: string, secret: string, options: SendOptions): Promise<SendResult> {
  let dispatcher: Dispatcher;
  try {
    ({ dispatcher } = await vetUpstreamUrl(url, { allowHosts: options.allowHosts, param: 'url', resolve: options.resolve, connectTimeoutMs: options.timeoutMs }));
  } catch (error) {
    return { ok: false, httpStatus: null, error: error instanceof GatewayError ? error.message : 'the URL could not be vetted', retryable: true };
  }
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await request(url, {
      method: 'POST',
      dispatcher,
      signal,
      headers: { 'content-type': 'application/json', 'user-agent': 'rosetta-alerts', [SIGNATURE_HEADER]: signBody(secret, body) },
      body,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    // The answer is not read, only drained (bounded), so the connection can be reused.
    await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    const status = response.statusCode;
    if (status >= 200 && status < 300) return { ok: true, httpStatus: status, error: null, retryable: false };
    const retryable = status >= 500 || status < 400 || RETRYABLE_4XX.has(status);
    return { ok: false, httpStatus: status, error: status >= 300 && status < 400 ? `the receiver redirected (${status}); redirects are not followed` : `the receiver answered ${status}`, retryable };
  } catch (error) {
    return { ok: false, httpStatus: null, error: signal.aborted ? `no answer within ${options.timeoutMs} ms` : describeFailure(error), retryable: true };
  }
}

/** A connection failure in words, never the URL (which may carry a token, as Slack's do). */
function describeFailure(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? `connection failed (${code})` : 'connection failed';
}
