import { randomBytes } from 'node:crypto';
import type { CanonicalResponse, UpstreamProtocolId } from '@rosetta/canonical';

/** An answer as the cache keeps it: the canonical response and what it cost when it was made. */
export interface CachedAnswer {
  response: CanonicalResponse;
  /** The public model and the provider that made it. */
  model: string;
  provider: string;
  /** The upstream protocol that made it (a dialect's decode warnings apply only across protocols). */
  protocol: UpstreamProtocolId;
  /** What the call cost (USD): what every hit saves. */
  costUsd: number;
  /** When it was stored (ms since the epoch): a hit's `Age`. */
  storedAt: number;
}

/** Only whole answers are kept: not one cut at its length cap, refused by a filter, or failed. */
export function isStorable(response: CanonicalResponse): boolean {
  const reason = response.finishReason.unified;
  return reason === 'stop' || reason === 'stop_sequence' || reason === 'tool_calls';
}

/**
 * The stored answer as a new response: its own id (same prefix, new random tail, so a dialect that
 * stores answers by id never sees one twice) and the time it is served.
 */
export function servedCopy(answer: CachedAnswer, now: number): CanonicalResponse {
  const { response } = answer;
  const tail = randomBytes(12).toString('hex');
  const prefix = /^(.*[-_])[^-_]*$/.exec(response.id)?.[1] ?? 'cached-';
  return { ...response, id: prefix + tail, created: Math.floor(now / 1000) };
}
