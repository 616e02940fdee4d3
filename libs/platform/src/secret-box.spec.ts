import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config-error';
import { SecretBox, SecretKeyMissingError, createSecretBox, isSealed, secretKeysFromEnv } from './secret-box';

const OLD = Buffer.alloc(32, 1);
const NEW = Buffer.alloc(32, 2);

describe('SecretBox', () => {
  it('seals with AES-256-GCM under a fresh IV each time and opens what it sealed', () => {
    const box = new SecretBox(NEW);
    const a = box.seal('sk-provider-secret');
    const b = box.seal('sk-provider-secret');
    expect(isSealed(a)).toBe(true);
    expect(a).not.toContain('sk-provider-secret');
    expect(a).not.toBe(b);
    expect(box.open(a)).toBe('sk-provider-secret');
    expect(box.open(b)).toBe('sk-provider-secret');
  });

  it('refuses a value that was tampered with', () => {
    const box = new SecretBox(NEW);
    const sealed = box.seal('sk-provider-secret');
    // Flip one character inside the ciphertext (the end of a base64 string may hold unused bits).
    const at = sealed.lastIndexOf(':') + 2;
    const flipped = sealed[at] === 'A' ? 'B' : 'A';
    expect(() => box.open(sealed.slice(0, at) + flipped + sealed.slice(at + 1))).toThrow();
  });

  it('rotates: opens with a previous key, asks to reseal it, and cannot open it once that key is dropped', () => {
    const sealedOld = new SecretBox(OLD).seal('sk-1');
    const rotating = new SecretBox(NEW, [OLD]);
    expect(rotating.open(sealedOld)).toBe('sk-1');
    expect(rotating.needsReseal(sealedOld)).toBe(true);
    const resealed = rotating.seal(rotating.open(sealedOld));
    expect(rotating.needsReseal(resealed)).toBe(false);
    expect(new SecretBox(NEW).open(resealed)).toBe('sk-1');
    expect(() => new SecretBox(NEW).open(sealedOld)).toThrow(SecretKeyMissingError);
  });

  it('reads plain text stored before encryption as it is, and asks to seal it', () => {
    const box = new SecretBox(NEW);
    expect(box.open('sk-legacy')).toBe('sk-legacy');
    expect(box.needsReseal('sk-legacy')).toBe(true);
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

  it('without SECRETS_KEY, keeps a generated key in the embedded database directory (0600), and none on a shared database', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rosetta-secrets-'));
    const first = createSecretBox({ previous: [] }, { dataDir: dir });
    expect(first.source).toBe('data-dir');
    const sealed = first.seal('sk-embedded');
    expect(statSync(join(dir, 'secrets.key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'secrets.key'), 'utf8')).not.toContain('sk-embedded');
    // The next start reads the same key.
    expect(createSecretBox({ previous: [] }, { dataDir: dir }).open(sealed)).toBe('sk-embedded');
    expect(createSecretBox({ previous: [] }, undefined).canSeal).toBe(false);
    // Setting SECRETS_KEY later keeps what the generated key sealed readable, and due a reseal.
    const later = createSecretBox({ current: NEW, previous: [] }, { dataDir: dir });
    expect(later.open(sealed)).toBe('sk-embedded');
    expect(later.needsReseal(sealed)).toBe(true);
  });
});
