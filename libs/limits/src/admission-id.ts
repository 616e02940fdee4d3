import { randomBytes } from 'node:crypto';

/** 72 random bits, drawn once per process: what keeps this process's ids apart from every other's. */
const PROCESS = randomBytes(9).toString('base64url');
let next = 0;

/**
 * An id no other admission of any process shares: a window entry's member, a budget hold's id. A
 * process prefix and a counter do what a random UUID per id did (they only need to be unique in
 * their window or counter), without drawing randomness on every request.
 */
export function admissionId(): string {
  next += 1;
  return `${PROCESS}.${next.toString(36)}`;
}
