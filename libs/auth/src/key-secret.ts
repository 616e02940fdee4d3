import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * API keys look like `rsk_<lookup>_<secret>`. The lookup part finds the row without touching the
 * secret; only a SHA-256 of the secret is stored, and the comparison is constant-time. Secrets
 * carry ~238 bits of entropy, so a fast hash is enough (no password-style stretching needed).
 */
export const KEY_PREFIX = 'rsk';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LOOKUP_LENGTH = 12;
const SECRET_LENGTH = 40;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}_([A-Za-z0-9]{${LOOKUP_LENGTH}})_([A-Za-z0-9]{${SECRET_LENGTH}})$`);

function randomString(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export interface GeneratedKey {
  key: string;
  lookupId: string;
  secretHash: string;
}

export function generateApiKey(): GeneratedKey {
  const lookupId = randomString(LOOKUP_LENGTH);
  const secret = randomString(SECRET_LENGTH);
  return { key: `${KEY_PREFIX}_${lookupId}_${secret}`, lookupId, secretHash: hashSecret(secret) };
}

export function parseApiKey(key: string): { lookupId: string; secret: string } | null {
  const match = KEY_PATTERN.exec(key);
  return match ? { lookupId: match[1]!, secret: match[2]! } : null;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function verifySecret(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** Constant-time comparison of two arbitrary strings (admin token). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
