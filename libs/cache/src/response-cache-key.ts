import { createHash } from 'node:crypto';
import type { CanonicalRequest } from '@rosetta/canonical';

/**
 * What makes two requests the same question: the canonical request (messages, tools, parameters,
 * the requested model) and not how it is delivered or routed (`stream`, `routing`, the client's
 * original body, the end-user tag) nor where the client put cache breakpoints. Written with keys
 * sorted, so the same question from any dialect is the same text.
 */
const NOT_CONTENT: ReadonlySet<string> = new Set(['stream', 'routing', 'passthrough', 'user', 'promptCacheKey', 'autoPromptCache', 'cache']);

/** The scope an answer is shared within: the key's team, or the key alone (prompts carry secrets). */
export function cacheScope(key: { id: string; teamId: string | null } | undefined): string | undefined {
  if (!key) return undefined;
  return key.teamId ? `team:${key.teamId}` : `key:${key.id}`;
}

/** The cache key of a request in a scope: a SHA-256 of both, base64url. */
export function responseCacheKey(request: CanonicalRequest, scope: string): string {
  return createHash('sha256').update(scope).update('\n').update(canonicalText(request)).digest('base64url');
}

/** Why a request is never answered from the cache (nor stored), or undefined when it may be. */
export function uncacheableReason(request: CanonicalRequest): string | undefined {
  if ((request.candidateCount ?? 1) > 1) return 'n > 1';
  return undefined;
}

/** Sorted-key JSON of the request's content fields: linear in its size. */
export function canonicalText(value: unknown): string {
  const out: string[] = [];
  write(value, out, true);
  return out.join('');
}

function write(value: unknown, out: string[], top = false): void {
  if (value === null || typeof value !== 'object') {
    out.push(value === undefined ? 'null' : JSON.stringify(value));
    return;
  }
  if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, i) => {
      if (i > 0) out.push(',');
      write(item, out);
    });
    out.push(']');
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined && !(NOT_CONTENT.has(k) && (top || k === 'cache')))
    .sort();
  out.push('{');
  keys.forEach((k, i) => {
    if (i > 0) out.push(',');
    out.push(JSON.stringify(k), ':');
    write(record[k], out);
  });
  out.push('}');
}
