import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomId } from '../http-io';
import { SIGNATURE_SECRET } from '../signatures';

/** The OAuth scope Vertex AI requires on a Google access token. */
export const GOOGLE_CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** The resource an Azure OpenAI bearer token must be issued for. */
export const AZURE_COGNITIVE_SERVICES = 'https://cognitiveservices.azure.com';

/** Who a token is for: Google scopes (space-separated) or an Azure resource. */
export interface TokenClaims {
  audience: string;
  /** Unix seconds, fractional for sub-second lifetimes. */
  expiresAt: number;
}

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: 'malformed' | 'expired' | 'audience' };

const GOOGLE_PREFIX = 'ya29.sim.';
const AZURE_PREFIX = 'eyJ0eXAiOiJzaW0ifQ.';

function sign(payload: string): string {
  return createHmac('sha256', SIGNATURE_SECRET).update(`access-token:${payload}`).digest('base64url');
}

/**
 * An access token the simulator can check without shared state: the claims travel in the token,
 * signed with the simulator's public HMAC key. The token servers issue them; the cloud surfaces
 * accept only these, and only until they expire.
 */
export function mintAccessToken(flavour: 'google' | 'azure', audience: string, expiresInSeconds: number, nowMs = Date.now()): string {
  const claims = { aud: audience, exp: nowMs / 1000 + expiresInSeconds, n: randomId(12) };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${flavour === 'google' ? GOOGLE_PREFIX : AZURE_PREFIX}${payload}.${sign(payload)}`;
}

function readClaims(payload: string): TokenClaims | undefined {
  try {
    const value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { aud?: unknown; exp?: unknown };
    if (typeof value.aud !== 'string' || typeof value.exp !== 'number') return undefined;
    return { audience: value.aud, expiresAt: value.exp };
  } catch {
    return undefined;
  }
}

/** `accepts` decides whether the token's audience is good for the surface asking. */
export function checkAccessToken(
  flavour: 'google' | 'azure',
  token: string,
  accepts: (audience: string) => boolean,
  nowMs = Date.now(),
): TokenCheck {
  const prefix = flavour === 'google' ? GOOGLE_PREFIX : AZURE_PREFIX;
  if (!token.startsWith(prefix)) return { ok: false, reason: 'malformed' };
  const [payload, signature, ...rest] = token.slice(prefix.length).split('.');
  if (!payload || !signature || rest.length > 0) return { ok: false, reason: 'malformed' };
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'malformed' };
  const claims = readClaims(payload);
  if (!claims) return { ok: false, reason: 'malformed' };
  if (claims.expiresAt * 1000 <= nowMs) return { ok: false, reason: 'expired' };
  if (!accepts(claims.audience)) return { ok: false, reason: 'audience' };
  return { ok: true, claims };
}

/** The token after `Bearer `, or undefined. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}
