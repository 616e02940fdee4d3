/**
 * What a 401 says: what was received and what was expected, never the secret itself. A presented
 * value is shown by at most its first four characters, and only where those are a public prefix
 * (`rsk_`, `sk-…`) or the value is long enough that four characters give nothing away.
 */
import type { CredentialSources } from '@rosetta/protocols/common';
import type { KeyCheck } from './key-cache.service';
import { KEY_PREFIX, parseApiKey } from './key-secret';
import type { CredentialSource } from './extract-credential';

/** How a gateway API key is written in examples. */
const KEY = `${KEY_PREFIX}_…`;
const BEARER = `Authorization: Bearer ${KEY}`;
/** rsk_ + 12 + _ + 40 (key-secret.ts). */
const KEY_LENGTH = KEY_PREFIX.length + 1 + 12 + 1 + 40;
const NEW_KEY = 'create one in the dashboard (Keys) or with POST /admin/keys';

/** Keys that belong to someone else than this gateway, recognised by their public prefixes. */
const FOREIGN_KEYS: ReadonlyArray<{ prefix: string; what: string }> = [
  { prefix: 'sk-ant-', what: 'an Anthropic API key (sk-ant-…)' },
  { prefix: 'sk-', what: 'an OpenAI API key (sk-…)' },
  { prefix: 'AIza', what: 'a Google API key (AIza…)' },
];

/**
 * Where a route takes the key, its dialect's own places first (what its SDK sends), then the
 * ones every route accepts (extract-credential.ts): "in the x-goog-api-key header or as ?key=rsk_…
 * (this route also takes Authorization: Bearer rsk_… and the x-api-key header)".
 */
export function credentialAdvice(sources: CredentialSources = {}): string {
  const own = [...(sources.headers ?? []).map((name) => `in the ${name} header`), ...(sources.query ?? []).map((name) => `as ?${name}=${KEY}`)];
  const everywhere = [BEARER, 'the x-api-key header'].filter((place) => place !== 'the x-api-key header' || !sources.headers?.includes('x-api-key'));
  if (own.length === 0) return `send it as ${everywhere[0]} (this route also takes ${everywhere.slice(1).join(' and ')})`;
  return `send it ${own.join(' or ')} (this route also takes ${everywhere.join(' and ')})`;
}

function header(source: CredentialSource, name: string): string | undefined {
  const value = source.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `rsk_…`, `Basi…`: the first four characters of a long value, or nothing of a short one. */
export function preview(value: string): string {
  return value.length >= 16 ? `${value.slice(0, 4)}…` : '…';
}

/**
 * The 401 for a request where no key was found: what was there instead (an Authorization header
 * without its Bearer scheme, an empty header), and where this route takes the key.
 */
export function missingKeyMessage(source: CredentialSource, sources: CredentialSources = {}): string {
  const authorization = header(source, 'authorization')?.trim();
  if (authorization) {
    if (/^Bearer$/i.test(authorization)) return `Missing API key: an Authorization header said Bearer with no key after it; expected ${BEARER}`;
    return `Missing API key: an Authorization header was received without the Bearer scheme (Authorization: ${preview(authorization)}); expected ${BEARER}`;
  }
  const empty = ['x-api-key', ...(sources.headers ?? [])].find((name) => header(source, name) !== undefined);
  if (empty) return `Missing API key: the ${empty} header was received empty; ${credentialAdvice(sources)}`;
  return `Missing API key: ${credentialAdvice(sources)}`;
}

/** The 401 for a key that was presented and refused: which way it is wrong, and the fix. */
export function refusedKeyMessage(presented: string, reason: Exclude<KeyCheck, { ok: true }>['reason']): string {
  switch (reason) {
    case 'revoked':
      return 'API key has been revoked: ask an admin for a new one';
    case 'expired':
      return 'API key has expired: ask an admin to extend it (expires_at) or for a new one';
    case 'invalid':
      return invalidKeyMessage(presented);
  }
}

/**
 * Wrong shape and unknown key are told apart (the shape is the caller's to see); an unknown key
 * and a wrong secret are not, so the answer never says whether a key id exists.
 */
function invalidKeyMessage(presented: string): string {
  if (presented.startsWith('rat_')) {
    return `Invalid API key: this is an admin token (rat_…), which signs in to the dashboard and the admin API; call models with an API key (${KEY}) created there`;
  }
  if (parseApiKey(presented)) return `Invalid API key: no key of this gateway matches it (mistyped, or issued by another gateway); ${NEW_KEY}`;
  if (presented.startsWith(`${KEY_PREFIX}_`)) {
    return `Invalid API key: it starts with ${KEY} but is not a whole key (${KEY_PREFIX}_, 12 letters or digits, _, 40 letters or digits: ${KEY_LENGTH} characters; this one has ${presented.length}); check that it was copied in full`;
  }
  const foreign = FOREIGN_KEYS.find((key) => presented.startsWith(key.prefix));
  if (foreign) return `Invalid API key: this is ${foreign.what}; the gateway holds the providers' keys itself: call it with a gateway API key (${KEY}), ${NEW_KEY}`;
  return `Invalid API key: not a gateway API key (expected ${KEY_PREFIX}_ followed by 12 and 40 letters or digits); ${NEW_KEY}`;
}

/** What kind of secret a value is, where its public prefix says so. */
export function secretKind(value: string): { kind: 'api-key' | 'admin-token'; what: string } | undefined {
  if (value.startsWith(`${KEY_PREFIX}_`)) return { kind: 'api-key', what: `a gateway API key, ${KEY}` };
  if (value.startsWith('rat_')) return { kind: 'admin-token', what: 'an admin token, rat_…' };
  return undefined;
}
