import { randomBytes } from 'node:crypto';

const SAFE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** `req_` + 24 random base32-ish characters: unique, URL-safe, not guessable. */
export function newRequestId(): string {
  return `req_${randomBytes(15).toString('base64url')}`;
}

/** Keep a caller's id when it is safe to echo and log; otherwise mint one. */
export function resolveRequestId(incoming: string | string[] | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && SAFE_ID.test(value) ? value : newRequestId();
}
