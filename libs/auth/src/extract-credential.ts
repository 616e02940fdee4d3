/** The request fields the credential may come from; kept free of Express types. */
export interface CredentialSource {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
}

function header(source: CredentialSource, name: string): string | undefined {
  const value = source.headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

/**
 * X-API-Key (also Anthropic's x-api-key) or Authorization: Bearer on every route; for the Gemini
 * dialect (`google`) also x-goog-api-key and ?key=, as Google's SDK and curl examples send them.
 */
export function extractCredential(source: CredentialSource, google = source.path.startsWith('/v1beta')): string | undefined {
  const apiKey = header(source, 'x-api-key');
  if (apiKey) return apiKey;
  const authorization = header(source, 'authorization');
  if (authorization) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization);
    if (match) return match[1]!.trim();
  }
  if (google) {
    const goog = header(source, 'x-goog-api-key');
    if (goog) return goog;
    const key = source.query['key'];
    if (typeof key === 'string' && key) return key;
  }
  return undefined;
}
