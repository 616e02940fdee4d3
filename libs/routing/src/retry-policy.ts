import type { AbortWatch } from '@rosetta/providers';
import type { GatewayError } from '@rosetta/canonical';

/** Retries of the same endpoint before falling back to the next one. */
export const MAX_RETRIES_PER_ENDPOINT = 1;
const BASE_DELAY_MS = 200;
/** A retry-after longer than this is better spent on another endpoint. */
const MAX_WAIT_MS = 3_000;

/**
 * How long to wait before retrying the same endpoint, or undefined to move on: exponential
 * backoff with full jitter, or the upstream's retry-after when it is short enough.
 */
export function retryDelay(error: GatewayError, retry: number, random: () => number = Math.random): number | undefined {
  // A refusal about the request itself (e.g. provider_require_parameters) would only repeat.
  if (error.local || !error.retryable || !isEndpointFailure(error) || retry >= MAX_RETRIES_PER_ENDPOINT) return undefined;
  if (error.retryAfterMs !== undefined) return error.retryAfterMs <= MAX_WAIT_MS ? error.retryAfterMs : undefined;
  return Math.round(random() * BASE_DELAY_MS * 2 ** retry);
}

/**
 * Whether an error says the endpoint is unwell, as opposed to the caller's request being bad or
 * the gateway failing on its own (ARCHITECTURE §8: local failures never touch endpoint health).
 */
export function isEndpointFailure(error: GatewayError): boolean {
  return !error.local && (error.status === 429 || error.status >= 500);
}

/** A time-out: with another candidate waiting, repeating the wait on the same endpoint only delays. */
export function isTimeout(error: GatewayError): boolean {
  return error.status === 504;
}

export function sleep(ms: number, signal: AbortWatch): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.off('abort', done);
      resolve();
    }
    signal.once('abort', done);
  });
}
