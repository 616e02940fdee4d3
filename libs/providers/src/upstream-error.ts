import { GatewayError } from '@rosetta/canonical';

/** Statuses the caller gets as-is: they describe the caller's own request. */
const PASS_THROUGH = new Set([400, 413, 422, 429]);

/**
 * Removes what must never reach a caller: credentials and internal addresses.
 * Upstream messages sometimes echo the key ("Incorrect API key provided: sk-...") or a URL.
 */
export function sanitizeUpstreamMessage(message: string, secrets: readonly string[] = []): string {
  let out = message;
  for (const secret of secrets) if (secret.length >= 6) out = out.split(secret).join('[redacted]');
  return out
    .replace(/\b(sk|rsk|rk|pk|key|AIza)[-_A-Za-z0-9]{12,}/g, '[redacted]')
    .replace(/\bhttps?:\/\/[^\s"'<>)]+/gi, '[url]')
    .slice(0, 1000);
}

export function upstreamHttpError(
  status: number,
  message: string,
  options: { retryAfterMs?: number; secrets?: readonly string[]; code?: string } = {},
): GatewayError {
  const clean = sanitizeUpstreamMessage(message, options.secrets);
  const passThrough = PASS_THROUGH.has(status);
  return new GatewayError('upstream_error', `Upstream service error: ${clean}`, {
    status: passThrough ? status : 502,
    retryable: status === 429 || status === 408 || status >= 500 || status === 401 || status === 403 || status === 404,
    retryAfterMs: options.retryAfterMs,
    code: options.code,
  });
}

/** The code of an upstream's refusal of reasoning parameters (`UpstreamProtocol.refusesReasoning`). */
export const REASONING_REFUSED = 'reasoning_not_supported';

export function upstreamTimeout(phase: string): GatewayError {
  return new GatewayError('upstream_error', `Upstream service error: timed out waiting for ${phase}`, {
    status: 504,
    retryable: true,
  });
}

export function upstreamUnreachable(detail: string): GatewayError {
  return new GatewayError('upstream_error', `Upstream service error: ${detail}`, { status: 502, retryable: true });
}

/** `retry-after` as seconds or HTTP date, or `retry-after-ms`, in milliseconds. */
export function parseRetryAfter(headers: Record<string, string | string[] | undefined>): number | undefined {
  const first = (name: string): string | undefined => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const ms = Number(first('retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && first('retry-after-ms') !== undefined) return ms;
  const raw = first('retry-after');
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
