import { randomBytes } from 'node:crypto';

const SAFE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * 16 random URL-safe characters per process: ids stay unique across replicas and restarts while
 * each request only bumps a counter (a `randomBytes` call per request was 2% of the hot path).
 */
const PROCESS_PREFIX = randomBytes(12).toString('base64url');
let sequence = 0;

/** `req_` + the process prefix + a base-36 sequence number: unique and URL-safe. */
export function newRequestId(): string {
  sequence = sequence === Number.MAX_SAFE_INTEGER ? 0 : sequence + 1;
  return `req_${PROCESS_PREFIX}${sequence.toString(36)}`;
}

/** Keep a caller's id when it is safe to echo and log; otherwise mint one. */
export function resolveRequestId(incoming: string | string[] | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && SAFE_ID.test(value) ? value : newRequestId();
}
