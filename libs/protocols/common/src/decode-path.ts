import { GatewayError } from '@rosetta/canonical';

/**
 * A path part percent-decoded, or — for a malformed escape such as `%ZZ` or a cut UTF-8
 * sequence — the caller's mistake: a 400 naming the whole path, never a URIError (a 500).
 */
export function decodePathPart(part: string, path: string): string {
  if (!part.includes('%')) return part;
  try {
    return decodeURIComponent(part);
  } catch {
    throw malformedPathError(path);
  }
}

export function malformedPathError(path: string): GatewayError {
  return GatewayError.invalidRequest(`Malformed percent-encoding in the request path '${path}'`);
}
