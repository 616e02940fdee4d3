import type { VettedUpstream } from '@rosetta/providers';
import { request } from 'undici';
import type { CheckDeadline } from './check-deadline';

/** A webhook's answer larger than this is not a verdict: reading stops there. */
export const MAX_WEBHOOK_ANSWER_BYTES = 64 * 1024;

export type WebhookExchange =
  | { ok: true; body: string }
  | { ok: false; reason: 'timeout' | 'unreachable' | 'upstream_error' | 'bad_verdict' };

/**
 * POSTs the payload to a vetted webhook over its pinned dispatcher and reads a 2xx answer of at
 * most 64 KB, all within the deadline: a server that never answers, or drips its body a byte at a
 * time, ends as `timeout`. Redirects are not followed (undici's request has no redirect handling
 * here), so a 3xx, like a 4xx or 5xx, is `upstream_error`; a refused or reset connection is
 * `unreachable`; a larger answer `bad_verdict`. Errors are classified, never rethrown, and never
 * carry the payload.
 */
export async function exchangeWebhook(target: VettedUpstream, payload: string, deadline: CheckDeadline): Promise<WebhookExchange> {
  try {
    const response = await request(target.url, {
      method: 'POST',
      dispatcher: target.dispatcher,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: payload,
      signal: deadline.signal,
    });
    if (response.statusCode < 200 || response.statusCode >= 300) {
      // The answer is not read: closing the body frees the request (the connection goes with it).
      discard(response.body);
      return { ok: false, reason: 'upstream_error' };
    }
    const body = await readCapped(response.body, MAX_WEBHOOK_ANSWER_BYTES);
    return body === null ? { ok: false, reason: 'bad_verdict' } : { ok: true, body };
  } catch {
    return { ok: false, reason: deadline.expired ? 'timeout' : 'unreachable' };
  }
}

/** The body as UTF-8 text, or null (and the body destroyed) once it passes `limit` bytes. */
async function readCapped(body: AsyncIterable<Buffer> & Discardable, limit: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      discard(body);
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

interface Discardable {
  on(event: 'error', listener: () => void): unknown;
  destroy(): unknown;
}

/** Closes a body not to be read; undici reports that as an `error` event, which is expected here. */
function discard(body: Discardable): void {
  body.on('error', () => undefined);
  body.destroy();
}
