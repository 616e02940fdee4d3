import { randomFillSync } from 'node:crypto';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** 96 random bits per id, drawn from a pool refilled 340 ids at a time (~60 ns an id). */
const ID_BYTES = 12;
const pool = Buffer.alloc(ID_BYTES * 340);
let offset = pool.length;

/**
 * `req_` + 16 URL-safe characters from the CSPRNG: unique and unguessable, so no caller can
 * predict another request's id (ARCHITECTURE §8: the gateway generates every request id itself).
 */
export function newRequestId(): string {
  if (offset + ID_BYTES > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `req_${id}`;
}

/** Whether `value` has the shape of an id this gateway generates. */
export function isGatewayRequestId(value: string): boolean {
  return value.length === 20 && value.startsWith('req_') && /^req_[A-Za-z0-9_-]{16}$/.test(value);
}

export interface RequestIds {
  /** The gateway's own id: the ledger's key, `x-request-id` on the response. */
  id: string;
  /** The caller's `x-request-id`, when safe to store and log; searchable, never a key. */
  clientId?: string;
}

/** A new id for every request; the caller's own kept beside it when it is safe to echo and log. */
export function requestIds(incoming: string | string[] | undefined): RequestIds {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return { id: newRequestId(), clientId: value && SAFE_ID.test(value) ? value : undefined };
}
