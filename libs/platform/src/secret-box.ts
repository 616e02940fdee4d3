/**
 * Provider secrets at rest (ARCHITECTURE §8 security): AES-256-GCM with a key from the
 * environment. A sealed value names the key that sealed it, so keys can be rotated: the new key
 * goes in SECRETS_KEY, the old one in SECRETS_KEY_PREVIOUS, and at start every stored secret is
 * sealed again under the new key (docs/decisions/0008).
 *
 * `enc:v2:` values are bound to where they are stored (GCM associated data, e.g. the provider's
 * slug and field): one copied into another row does not open, so whoever can write the table
 * cannot move a provider's key to a provider (and base URL) of their choosing. `enc:v1:` values,
 * sealed before that binding, still open and are due a reseal, which the start-up reseal does.
 * Anything else is refused, never used as the secret itself.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from './config-error';

const PREFIX = 'enc:v2:';
/** Sealed without associated data (before enc:v2:): opened for the start-up reseal to rebind. */
const UNBOUND_PREFIX = 'enc:v1:';
const IV_BYTES = 12;
/** GCM's full tag, fixed: Node would otherwise accept a truncated tag of as little as 4 bytes. */
const TAG_BYTES = 16;

export const SECRET_BOX = Symbol('SECRET_BOX');

/** A stored secret that cannot be opened: sealed with a key this process does not have. */
export class SecretKeyMissingError extends Error {
  constructor(readonly keyId: string) {
    super(`sealed with key ${keyId}, which is neither SECRETS_KEY nor in SECRETS_KEY_PREVIOUS`);
    this.name = 'SecretKeyMissingError';
  }
}

/** A stored value that is not a sealed secret at all (plain text, or damaged): refused, never used as the secret. */
export class SecretNotSealedError extends Error {
  constructor() {
    super('the stored value is not an enc:v2: (or enc:v1:) sealed secret; set the secret again');
    this.name = 'SecretNotSealedError';
  }
}

/** Where the keys came from, for the start-up log. */
export type SecretKeySource = 'environment' | 'data-dir' | 'none';

export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  private readonly currentId?: string;

  constructor(
    current: Buffer | undefined,
    previous: Buffer[] = [],
    readonly source: SecretKeySource = current ? 'environment' : 'none',
    /** The generated key's file, when the key came from the data directory. */
    readonly keyFile?: string,
  ) {
    for (const key of previous) this.keys.set(keyId(key), key);
    if (current) {
      this.currentId = keyId(current);
      this.keys.set(this.currentId, current);
    }
  }

  /** Whether new secrets can be stored at all (a current key exists). */
  get canSeal(): boolean {
    return this.currentId !== undefined;
  }

  /** The current key's id (a hash prefix, never the key), for logs. */
  get keyId(): string | undefined {
    return this.currentId;
  }

  /** Seals `plain` bound to `binding`, the place it is stored (see providerSecretBinding). */
  seal(plain: string, binding: string): string {
    if (!this.currentId) throw new Error('SecretBox: no SECRETS_KEY to seal with');
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentId)!, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(binding, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${this.currentId}:${iv.toString('base64url')}:${body.toString('base64url')}`;
  }

  /** The plain secret stored at `binding`; throws for a value sealed for another place, damaged, or not sealed at all. */
  open(stored: string, binding: string): string {
    const bound = stored.startsWith(PREFIX);
    if (!bound && !stored.startsWith(UNBOUND_PREFIX)) throw new SecretNotSealedError();
    const [id, iv, body, extra] = stored.slice((bound ? PREFIX : UNBOUND_PREFIX).length).split(':');
    if (iv === undefined || body === undefined || extra !== undefined) throw new SecretNotSealedError();
    const key = id === undefined ? undefined : this.keys.get(id);
    if (!key) throw new SecretKeyMissingError(id ?? '?');
    const bytes = Buffer.from(body, 'base64url');
    if (bytes.length < TAG_BYTES) throw new SecretNotSealedError();
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
    if (bound) decipher.setAAD(Buffer.from(binding, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  /** Whether a stored sealed value should be sealed again: unbound (enc:v1:), or sealed under an older key. */
  needsReseal(stored: string): boolean {
    if (!this.currentId) return false;
    return isSealed(stored) && !stored.startsWith(`${PREFIX}${this.currentId}:`);
  }
}

/** Where a provider's secret is stored, as the associated data its ciphertext is bound to. */
export function providerSecretBinding(slug: string, field: string): string {
  return `providers/${slug}/${field}`;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX) || stored.startsWith(UNBOUND_PREFIX);
}

function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** A 32-byte key written as 64 hex digits or as base64 (44 characters). */
export function parseSecretKey(variable: string, raw: string): Buffer {
  const value = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(value) ? Buffer.from(value, 'base64') : undefined;
  if (!key || key.length !== 32) {
    throw new ConfigError(variable, 'must be 32 random bytes as 64 hex digits or base64 (e.g. `openssl rand -base64 32`)');
  }
  return key;
}

/** SECRETS_KEY and SECRETS_KEY_PREVIOUS (comma-separated), validated at start. */
export function secretKeysFromEnv(env: Record<string, string | undefined>): { current?: Buffer; previous: Buffer[] } {
  const current = env['SECRETS_KEY']?.trim() ? parseSecretKey('SECRETS_KEY', env['SECRETS_KEY']) : undefined;
  const previous = (env['SECRETS_KEY_PREVIOUS'] ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)
    .map((k) => parseSecretKey('SECRETS_KEY_PREVIOUS', k));
  if (previous.length > 0 && !current) throw new ConfigError('SECRETS_KEY_PREVIOUS', 'is only read beside SECRETS_KEY (the key to seal with)');
  return { current, previous };
}

/**
 * The box for this process. Without SECRETS_KEY, the embedded single-process database keeps a
 * generated key in its data directory (mode 0600), so `npm start` works with nothing set. It sits
 * beside the database (ROSETTA_DATA_DIR/secrets.key, the database in ROSETTA_DATA_DIR/pgdata), not
 * in it, and the start-up log names the file (SecretBox.keyFile): a copy of the whole data
 * directory carries both, so such a copy is as secret as the provider keys themselves. With a
 * shared PostgreSQL there is no such fallback (replicas would each invent their own key), and a
 * provider secret cannot be stored until SECRETS_KEY is set.
 */
export function createSecretBox(keys: { current?: Buffer; previous: Buffer[] }, embedded: { dataDir: string } | undefined): SecretBox {
  const file = embedded ? join(resolve(embedded.dataDir), 'secrets.key') : undefined;
  if (keys.current) {
    // An embedded install that later sets SECRETS_KEY still opens what the generated key sealed
    // (and reseals it under SECRETS_KEY at start).
    const generated = file && existsSync(file) ? [parseSecretKey(file, readFileSync(file, 'utf8'))] : [];
    return new SecretBox(keys.current, [...keys.previous, ...generated], 'environment');
  }
  if (!embedded || !file) return new SecretBox(undefined, [], 'none');
  const dir = resolve(embedded.dataDir);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  return new SecretBox(parseSecretKey(file, readFileSync(file, 'utf8')), [], 'data-dir', file);
}
