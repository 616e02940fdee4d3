import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config-error';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { SecretBox, SecretKeyMissingError, SecretNotSealedError, createSecretBox, isSealed, providerSecretBinding, secretKeysFromEnv } from './secret-box';

const OLD = Buffer.alloc(32, 1);
const NEW = Buffer.alloc(32, 2);

const AT = 'providers/acme/api_key';

/** A value as the format before binding (enc:v1:) stored it: no associated data; `tagBytes` lets a test forge a short tag. */
function sealedUnbound(key: Buffer, plain: string, prefix = 'enc:v1:', tagBytes = 16): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: tagBytes });
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  const id = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return `${prefix}${id}:${iv.toString('base64url')}:${body.toString('base64url')}`;
}

describe('SecretBox', () => {
  it('seals with AES-256-GCM under a fresh IV each time and opens what it sealed', () => {
    const box = new SecretBox(NEW);
    const a = box.seal('sk-provider-secret', AT);
    const b = box.seal('sk-provider-secret', AT);
    expect(isSealed(a)).toBe(true);
    expect(a).toMatch(/^enc:v2:[0-9a-f]{8}:/);
    expect(a).not.toContain('sk-provider-secret');
    expect(a).not.toBe(b);
    expect(box.open(a, AT)).toBe('sk-provider-secret');
    expect(box.open(b, AT)).toBe('sk-provider-secret');
  });

  it('refuses a value that was tampered with', () => {
    const box = new SecretBox(NEW);
    const sealed = box.seal('sk-provider-secret', AT);
    // Flip one character inside the ciphertext (the end of a base64 string may hold unused bits).
    const at = sealed.lastIndexOf(':') + 2;
    const flipped = sealed[at] === 'A' ? 'B' : 'A';
    expect(() => box.open(sealed.slice(0, at) + flipped + sealed.slice(at + 1), AT)).toThrow();
  });

  it('opens a value only where it was sealed: copied to another provider or field it is refused', () => {
    const box = new SecretBox(NEW);
    const sealed = box.seal('sk-acme', providerSecretBinding('acme', 'api_key'));
    expect(() => box.open(sealed, providerSecretBinding('evil', 'api_key'))).toThrow();
    expect(() => box.open(sealed, providerSecretBinding('acme', 'other'))).toThrow();
    expect(box.open(sealed, providerSecretBinding('acme', 'api_key'))).toBe('sk-acme');
  });

  it('refuses a tag shorter than 16 bytes, which GCM would otherwise check', () => {
    const box = new SecretBox(NEW);
    for (const prefix of ['enc:v1:', 'enc:v2:']) {
      // An empty secret under a 4-byte tag: forgeable in 2^32 tries if it were accepted.
      expect(() => box.open(sealedUnbound(NEW, '', prefix, 4), AT)).toThrow(SecretNotSealedError);
      expect(() => box.open(sealedUnbound(NEW, 'sk-x', prefix, 12), AT)).toThrow();
    }
  });

  it('rotates: opens with a previous key, asks to reseal it, and cannot open it once that key is dropped', () => {
    const sealedOld = new SecretBox(OLD).seal('sk-1', AT);
    const rotating = new SecretBox(NEW, [OLD]);
    expect(rotating.open(sealedOld, AT)).toBe('sk-1');
    expect(rotating.needsReseal(sealedOld)).toBe(true);
    const resealed = rotating.seal(rotating.open(sealedOld, AT), AT);
    expect(rotating.needsReseal(resealed)).toBe(false);
    expect(new SecretBox(NEW).open(resealed, AT)).toBe('sk-1');
    expect(() => new SecretBox(NEW).open(sealedOld, AT)).toThrow(SecretKeyMissingError);
  });

  it('opens a value sealed before binding (enc:v1:) and asks to reseal it, bound, even under the current key', () => {
    const box = new SecretBox(NEW);
    const legacy = sealedUnbound(NEW, 'sk-v1');
    expect(box.open(legacy, AT)).toBe('sk-v1');
    expect(box.needsReseal(legacy)).toBe(true);
  });

  it('refuses plain text, and anything else without a sealed prefix, instead of using it as the secret', () => {
    const box = new SecretBox(NEW);
    for (const stored of ['sk-legacy', '', 'enc:v3:abcd:x:y', 'enc:v2:', `${box.seal('sk', AT)}:extra`]) {
      expect(() => box.open(stored, AT)).toThrow(SecretNotSealedError);
    }
    expect(box.needsReseal('sk-legacy')).toBe(false);
    expect(new SecretBox(undefined).needsReseal('sk-legacy')).toBe(false);
  });
});

describe('secret keys from the environment', () => {
  it('takes 64 hex digits or base64, and names the variable otherwise', () => {
    expect(secretKeysFromEnv({ SECRETS_KEY: 'ab'.repeat(32) }).current).toEqual(Buffer.alloc(32, 0xab));
    expect(secretKeysFromEnv({ SECRETS_KEY: NEW.toString('base64') }).current).toEqual(NEW);
    expect(() => secretKeysFromEnv({ SECRETS_KEY: 'short' })).toThrow(new ConfigError('SECRETS_KEY', 'must be 32 random bytes as 64 hex digits or base64 (e.g. `openssl rand -base64 32`)'));
    expect(() => secretKeysFromEnv({ SECRETS_KEY: 'ab'.repeat(32), SECRETS_KEY_PREVIOUS: 'ab'.repeat(32) + ',nope' })).toThrow(/SECRETS_KEY_PREVIOUS/);
    expect(() => secretKeysFromEnv({ SECRETS_KEY_PREVIOUS: 'ab'.repeat(32) })).toThrow(/only read beside SECRETS_KEY/);
    expect(secretKeysFromEnv({})).toEqual({ current: undefined, previous: [] });
  });

  it('without SECRETS_KEY, keeps a generated key beside the embedded database (0600) and names its file, and none on a shared database', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rosetta-secrets-'));
    const first = createSecretBox({ previous: [] }, { dataDir: dir });
    expect(first.source).toBe('data-dir');
    const sealed = first.seal('sk-embedded', AT);
    expect(first.keyFile).toBe(join(dir, 'secrets.key'));
    expect(statSync(join(dir, 'secrets.key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'secrets.key'), 'utf8')).not.toContain('sk-embedded');
    // The next start reads the same key.
    expect(createSecretBox({ previous: [] }, { dataDir: dir }).open(sealed, AT)).toBe('sk-embedded');
    expect(createSecretBox({ previous: [] }, undefined).canSeal).toBe(false);
    // Setting SECRETS_KEY later keeps what the generated key sealed readable, and due a reseal.
    const later = createSecretBox({ current: NEW, previous: [] }, { dataDir: dir });
    expect(later.open(sealed, AT)).toBe('sk-embedded');
    expect(later.needsReseal(sealed)).toBe(true);
  });
});
