import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header carrying a delivery's signature. */
export const SIGNATURE_HEADER = 'x-rosetta-signature';

/** `sha256=<hex HMAC-SHA256 of the exact body bytes, keyed with the webhook's secret>`. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** What a receiver does (and the tests): recompute over the raw body, compare in constant time. */
export function verifySignature(secret: string, body: string, header: string | undefined): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(signBody(secret, body), 'utf8');
  const given = Buffer.from(header, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
