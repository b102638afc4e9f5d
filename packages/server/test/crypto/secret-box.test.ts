import { describe, expect, it } from 'vitest';
import { MIN_KEY_SECRET_LENGTH, SecretBoxError, createSecretBox, generateToken, hashToken, safeEqual } from '../../src/crypto/secret-box.js';

const oldKey = { id: 'k2024', secret: 'an operator secret of at least thirty-two characters (old)' };
const newKey = { id: 'k2025', secret: 'an operator secret of at least thirty-two characters (new)' };

/** Flips one character of one segment, keeping it valid base64url. */
function tamper(value: string, segment: number): string {
  const parts = value.split('.');
  const s = parts[segment];
  parts[segment] = (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
  return parts.join('.');
}

describe('createSecretBox', () => {
  it('round-trips, in the v1.<iv>.<tag>.<ciphertext> base64url format', () => {
    const box = createSecretBox({ keys: [newKey] });
    for (const plaintext of ['whsec_abc', 'user:pässwörd 🔑', '']) {
      const value = box.encrypt(plaintext);
      expect(value).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$/);
      expect(value).not.toContain(plaintext || 'never');
      expect(box.decrypt(value)).toBe(plaintext);
    }
  });

  it('uses a fresh IV each time', () => {
    const box = createSecretBox({ keys: [newKey] });
    const [a, b] = [box.encrypt('same'), box.encrypt('same')];
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
  });

  it('derives the same key from the same secret (another instance reads it)', () => {
    const value = createSecretBox({ keys: [newKey] }).encrypt('persisted');
    expect(createSecretBox({ keys: [{ ...newKey, id: 'renamed' }] }).decrypt(value)).toBe('persisted');
  });

  it('refuses a tampered IV, tag or ciphertext, and malformed values', () => {
    const box = createSecretBox({ keys: [newKey] });
    const value = box.encrypt('secret value');
    for (const segment of [1, 2, 3]) expect(() => box.decrypt(tamper(value, segment))).toThrow(SecretBoxError);
    for (const bad of ['', 'v1', `v2${value.slice(2)}`, `${value}.x`, value.replace(/\.[^.]+\./, '.a+b.'), 'v1.AAAA.AAAA.AAAA']) {
      expect(() => box.decrypt(bad), bad).toThrow(SecretBoxError);
    }
  });

  it('refuses a value made with an unknown key', () => {
    const value = createSecretBox({ keys: [oldKey] }).encrypt('x');
    expect(() => createSecretBox({ keys: [newKey] }).decrypt(value)).toThrow(SecretBoxError);
  });

  it('binds the value to its context', () => {
    const box = createSecretBox({ keys: [newKey] });
    const value = box.encrypt('whsec_x', 'webhook-1');
    expect(box.decrypt(value, 'webhook-1')).toBe('whsec_x');
    expect(() => box.decrypt(value, 'webhook-2')).toThrow(SecretBoxError);
    expect(() => box.decrypt(value)).toThrow(SecretBoxError);
  });

  it('rotates: encrypts with the first key, decrypts with any, re-encrypts old values', () => {
    const before = createSecretBox({ keys: [oldKey] });
    const stored = before.encrypt('credential', 'row-9');
    const during = createSecretBox({ keys: [newKey, oldKey] });
    expect(during.primaryKeyId).toBe('k2025');
    expect(during.open(stored, 'row-9')).toEqual({ plaintext: 'credential', keyId: 'k2024' });
    expect(during.open(during.encrypt('fresh'))).toEqual({ plaintext: 'fresh', keyId: 'k2025' });

    const migrated = during.reencrypt(stored, 'row-9');
    expect(migrated).not.toBe(stored);
    expect(during.reencrypt(migrated, 'row-9')).toBe(migrated);
    // Once everything is migrated the old key can go.
    expect(createSecretBox({ keys: [newKey] }).decrypt(migrated, 'row-9')).toBe('credential');
  });

  it('refuses a configuration without keys, with duplicate ids or with a short secret', () => {
    expect(() => createSecretBox({ keys: [] })).toThrow(SecretBoxError);
    expect(() => createSecretBox({ keys: [newKey, { ...oldKey, id: newKey.id }] })).toThrow(/Duplicate/);
    expect(() => createSecretBox({ keys: [{ id: 'short', secret: 'x'.repeat(MIN_KEY_SECRET_LENGTH - 1) }] })).toThrow(SecretBoxError);
    expect(() => createSecretBox({ keys: [{ id: '', secret: newKey.secret }] })).toThrow(SecretBoxError);
  });
});

describe('tokens', () => {
  it('hashToken is the SHA-256 hex digest', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('generateToken is the prefix and 32 random bytes in base64url', () => {
    const token = generateToken();
    expect(token).toMatch(/^sa_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token.slice(3), 'base64url')).toHaveLength(32);
    expect(generateToken()).not.toBe(token);
    expect(generateToken('test_')).toMatch(/^test_[A-Za-z0-9_-]{43}$/);
  });

  it('safeEqual compares strings of any length', () => {
    expect(safeEqual('sa_token', 'sa_token')).toBe(true);
    expect(safeEqual('sa_token', 'sa_tokeN')).toBe(false);
    expect(safeEqual('sa_token', 'sa_token_longer')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
  });
});
