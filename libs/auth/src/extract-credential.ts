import type { CredentialSources } from '@rosetta/protocols/common';

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
 * X-API-Key (also Anthropic's x-api-key) or Authorization: Bearer on every route; then wherever
 * the route's dialect says its clients send it (`extra`: Gemini's x-goog-api-key and ?key=).
 */
export function extractCredential(source: CredentialSource, extra: CredentialSources = {}): string | undefined {
  const apiKey = header(source, 'x-api-key');
  if (apiKey) return apiKey;
  const authorization = header(source, 'authorization');
  if (authorization) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization);
    if (match) return match[1]!.trim();
  }
  for (const name of extra.headers ?? []) {
    const value = header(source, name);
    if (value) return value;
  }
  for (const name of extra.query ?? []) {
    const value = source.query[name];
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}
