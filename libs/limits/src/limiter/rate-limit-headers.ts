import type { WindowResult } from './rate-limit-store';

/**
 * What the limiter knows about one request. For each dimension: the window after this request,
 * `null` when the key is unlimited in it, `undefined` when it has not been read.
 */
export interface LimitState {
  plan: string;
  requests?: WindowResult | null;
  tokens?: WindowResult | null;
}

/**
 * A duration the way OpenAI writes its `x-ratelimit-reset-*` headers (Go's duration format at
 * millisecond precision): `0s`, `250ms`, `1s`, `1.5s`, `59.999s`, `6m0s`, `1h0m0s`.
 */
export function formatResetDuration(ms: number): string {
  const total = Number.isFinite(ms) && ms > 0 ? Math.ceil(ms) : 0;
  if (total === 0) return '0s';
  if (total < 1_000) return `${total}ms`;
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const millis = total % 60_000;
  const seconds = `${Math.floor(millis / 1_000)}${millis % 1_000 ? `.${String(millis % 1_000).padStart(3, '0').replace(/0+$/, '')}` : ''}s`;
  if (hours > 0) return `${hours}h${minutes}m${seconds}`;
  if (minutes > 0) return `${minutes}m${seconds}`;
  return seconds;
}

/**
 * The six `x-ratelimit-*` headers (ARCHITECTURE §4.7): `-limit-` and `-remaining-` are counts over
 * the sliding minute; `-reset-` is the time until the window is back to its full limit (everything
 * now counted has expired), as in OpenAI's headers. Convention for unlimited dimensions (a `null`
 * limit) and dimensions not read: their three headers are omitted.
 */
export function rateLimitHeaders(state: LimitState): Record<string, string> {
  const headers: Record<string, string> = {};
  add(headers, 'requests', state.requests);
  add(headers, 'tokens', state.tokens);
  return headers;
}

function add(headers: Record<string, string>, kind: 'requests' | 'tokens', window: WindowResult | null | undefined): void {
  if (!window) return;
  headers[`x-ratelimit-limit-${kind}`] = String(window.limit);
  headers[`x-ratelimit-remaining-${kind}`] = String(Math.max(0, window.remaining));
  headers[`x-ratelimit-reset-${kind}`] = formatResetDuration(window.windowResetMs ?? window.resetMs);
}
