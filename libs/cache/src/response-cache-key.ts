import { createHash } from 'node:crypto';
import type { CanonicalRequest } from '@rosetta/canonical';

/**
 * What makes two requests the same question: the canonical request (messages, tools, parameters,
 * the requested model) and not how it is delivered or routed (`stream`, `routing`, the client's
 * original body, the end-user tag) nor where the client put cache breakpoints. Written with keys
 * sorted, so the same question from any dialect is the same text.
 */
const NOT_CONTENT: ReadonlySet<string> = new Set(['stream', 'routing', 'passthrough', 'user', 'tags', 'promptCacheKey', 'autoPromptCache', 'cache']);

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

/**
 * The request's content fields in one unambiguous text: objects with their keys sorted, every
 * string and key prefixed by its length (no escaping to do), so the same value always writes the
 * same text and two different values never do. Linear in the request's size: a string built by
 * concatenation and hashed once.
 */
export function canonicalText(value: unknown): string {
  return write(value, true);
}

function write(value: unknown, top = false): string {
  switch (typeof value) {
    case 'string':
      return `s${value.length}:${value}`;
    case 'number':
      return `n${value};`;
    case 'boolean':
      return value ? 't' : 'f';
    case 'object':
      break;
    default:
      return 'z';
  }
  if (value === null) return 'z';
  if (Array.isArray(value)) {
    let text = `a${value.length}[`;
    for (const item of value) text += write(item);
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  const keys: string[] = [];
  for (const k in record) {
    if (record[k] !== undefined && k !== 'cache' && !(top && NOT_CONTENT.has(k))) keys.push(k);
  }
  if (keys.length > 1) keys.sort();
  let text = `o${keys.length}{`;
  for (const k of keys) text += `${k.length}:${k}${write(record[k])}`;
  return `${text}}`;
}
