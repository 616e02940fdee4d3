import { GatewayError } from '@rosetta/canonical';

const ALT_VALUES = ['json', 'sse'];

/**
 * The `alt` query parameter: `sse` frames streamGenerateContent as server-sent events; absent or
 * `json`, one JSON array streamed element by element. Anything else (`SSE`, `proto`, `alt`
 * repeated) is refused rather than guessed at: a client expecting SSE must not get an array.
 * True when the caller asked for SSE.
 */
export function validateGeminiAlt(alt: unknown): boolean {
  if (alt === undefined) return false;
  if (typeof alt !== 'string' || !ALT_VALUES.includes(alt)) {
    const got = Array.isArray(alt) ? `given ${alt.length} times` : `got '${String(alt)}'`;
    throw GatewayError.invalidRequest(`Invalid query parameter 'alt': must be 'sse' or 'json' (or absent), ${got}`, 'alt');
  }
  return alt === 'sse';
}
