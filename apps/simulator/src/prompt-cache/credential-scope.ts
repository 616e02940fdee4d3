import { createHash } from 'node:crypto';

const SIGV4_CREDENTIAL = /Credential=([^/,\s]+)\//;
const BEARER = /^Bearer\s+(\S+)/i;

/**
 * Which account a request's prompt cache belongs to: its API key (`x-api-key`, Azure's
 * `api-key`, `x-goog-api-key`), bearer token, or SigV4 access key id (the signature itself
 * changes every request). Hashed, so no key is kept; empty when the request carries none
 * (a keyless local server).
 */
export function credentialScope(headers: Record<string, string>): string {
  const authorization = headers['authorization']?.trim() ?? '';
  const credential =
    headers['x-api-key'] ??
    headers['api-key'] ??
    headers['x-goog-api-key'] ??
    SIGV4_CREDENTIAL.exec(authorization)?.[1] ??
    BEARER.exec(authorization)?.[1] ??
    '';
  return credential === '' ? '' : createHash('sha256').update(credential).digest('hex').slice(0, 32);
}
