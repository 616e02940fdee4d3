import type { ProtocolId } from '@rosetta/canonical';

/**
 * Which dialect a path belongs to, so errors raised before a controller runs (auth, body parsing,
 * unknown routes) are still rendered in the envelope the caller's SDK parses.
 */
export function dialectForPath(path: string): ProtocolId {
  if (path.startsWith('/v1beta')) return 'gemini';
  if (path.startsWith('/v1/messages')) return 'anthropic';
  return 'openai';
}
