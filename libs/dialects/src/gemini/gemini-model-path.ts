import { GatewayError } from '@rosetta/canonical';

export type GeminiMethod = 'generateContent' | 'streamGenerateContent' | 'countTokens';
const METHODS: readonly string[] = ['generateContent', 'streamGenerateContent', 'countTokens'];

/**
 * `/v1beta/models/rosetta/gemini-2.5-flash:generateContent`: the model may contain slashes; the
 * method follows the last colon. Nest hands the wildcard over as segments.
 */
export function parseGeminiModelPath(path: string | string[]): { model: string; method: GeminiMethod } {
  const joined = Array.isArray(path) ? path.join('/') : path;
  const colon = joined.lastIndexOf(':');
  const method = colon >= 0 ? joined.slice(colon + 1) : '';
  if (colon <= 0 || !METHODS.includes(method)) {
    throw new GatewayError('not_found_error', `Unknown method '${method || joined}': use :generateContent, :streamGenerateContent or :countTokens`);
  }
  return { model: decodeURIComponent(joined.slice(0, colon)), method: method as GeminiMethod };
}
