import { GatewayError } from '@rosetta/canonical';
import { decodePathPart } from '@rosetta/protocols/common';

export type GeminiMethod = 'generateContent' | 'streamGenerateContent' | 'countTokens' | 'embedContent' | 'batchEmbedContents';
const METHODS: readonly string[] = ['generateContent', 'streamGenerateContent', 'countTokens', 'embedContent', 'batchEmbedContents'];
const PREFIX = '/v1beta/models/';

export interface GeminiModelPath {
  model: string;
  method: GeminiMethod;
}

/**
 * `rosetta/gemini-2.5-flash:generateContent`, the path after `/v1beta/models/` as it came on the
 * wire (the data plane hands it over raw): the model may contain slashes and is percent-decoded; the method follows
 * the last colon. A malformed escape (`%ZZ`) is the caller's mistake, a 400 naming the path.
 */
export function parseGeminiModelPath(rawTail: string): GeminiModelPath {
  const { model, method } = split(rawTail);
  return { model: decodePathPart(model, `${PREFIX}${rawTail}`), method };
}

function split(joined: string): GeminiModelPath {
  const colon = joined.lastIndexOf(':');
  const method = colon >= 0 ? joined.slice(colon + 1) : '';
  if (colon <= 0 || !METHODS.includes(method)) {
    throw new GatewayError('not_found_error', `Unknown method '${method || joined}': use :generateContent, :streamGenerateContent, :countTokens, :embedContent or :batchEmbedContents`);
  }
  return { model: joined.slice(0, colon), method: method as GeminiMethod };
}
