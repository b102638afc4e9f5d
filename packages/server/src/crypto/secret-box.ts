/**
 * Encryption at rest for the secrets the server must read back (webhook signing secrets, HTTP
 * crawl credentials), and the helpers for API tokens, which are stored only as hashes.
 */
import { createCipheriv, createDecipheriv, createHash, hash, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Fixed salt and info: the operator secret is the only variable input, so one secret always
// derives the same key, on every instance and after every restart.
const HKDF_SALT = 'siteaudit/secret-box';
const HKDF_INFO = 'aes-256-gcm key v1';
/** HKDF does not stretch a weak secret, so a short one is refused rather than silently used. */
export const MIN_KEY_SECRET_LENGTH = 32;

const BASE64URL = /^[A-Za-z0-9_-]*$/;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/** One operator-supplied key: `id` names it in configuration and in `open()` results. */
export interface SecretBoxKey {
  id: string;
  secret: string;
}

export interface SecretBox {
  /** Id of the key that encrypts (the first one configured). */
  readonly primaryKeyId: string;
  /**
   * Encrypts with the primary key. `context` (for example the row id) is authenticated, not
   * stored: a value copied to another row, or another column, then fails to open.
   */
  encrypt(plaintext: string, context?: string): string;
  /** Decrypts with whichever configured key opens the value; throws `SecretBoxError` otherwise. */
  decrypt(value: string, context?: string): string;
  /** Like `decrypt`, and says which key opened the value. */
  open(value: string, context?: string): { plaintext: string; keyId: string };
  /** Returns the value encrypted with the primary key: unchanged when it already is. */
  reencrypt(value: string, context?: string): string;
}

function deriveKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, HKDF_SALT, HKDF_INFO, 32));
}

function aad(context: string | undefined): Buffer {
  return Buffer.from(`${VERSION}:${context ?? ''}`, 'utf8');
}

function parse(value: string): { iv: Buffer; tag: Buffer; ciphertext: Buffer } {
  const parts = value.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION || !parts.slice(1).every((p) => BASE64URL.test(p))) {
    throw new SecretBoxError('Not a v1 secret-box value');
  }
  const iv = Buffer.from(parts[1], 'base64url');
  const tag = Buffer.from(parts[2], 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('Not a v1 secret-box value');
  return { iv, tag, ciphertext: Buffer.from(parts[3], 'base64url') };
}

/**
 * Builds the box from one or more keys. Rotation: put the new key first and keep the old ones
 * until every stored value has been passed through `reencrypt`. The key id is not written into
 * the value; GCM authentication tells which key opens it (a wrong key never yields plaintext).
 *
 * @example
 * const box = createSecretBox({ keys: [{ id: '2025-06', secret: process.env.SECRET_KEY! }] });
 * const stored = box.encrypt(webhookSecret, webhook.id);
 * box.decrypt(stored, webhook.id) === webhookSecret;
 */
export function createSecretBox(options: { keys: SecretBoxKey[] }): SecretBox {
  const { keys } = options;
  if (keys.length === 0) throw new SecretBoxError('At least one key is required');
  const ids = new Set<string>();
  const derived = keys.map(({ id, secret }) => {
    if (!id) throw new SecretBoxError('Every key needs an id');
    if (ids.has(id)) throw new SecretBoxError(`Duplicate key id "${id}"`);
    ids.add(id);
    if (typeof secret !== 'string' || secret.length < MIN_KEY_SECRET_LENGTH) {
      throw new SecretBoxError(`Key "${id}" must be at least ${MIN_KEY_SECRET_LENGTH} characters`);
    }
    return { id, key: deriveKey(secret) };
  });
  const primary = derived[0];

  function encrypt(plaintext: string, context?: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, primary.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  function open(value: string, context?: string): { plaintext: string; keyId: string } {
    const { iv, tag, ciphertext } = parse(value);
    for (const { id, key } of derived) {
      const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(aad(context));
      decipher.setAuthTag(tag);
      try {
        const plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
        return { plaintext, keyId: id };
      } catch {
        // Authentication failed with this key: try the next (older) one.
      }
    }
    throw new SecretBoxError('No configured key opens this value (unknown key, wrong context or tampered)');
  }

  return {
    primaryKeyId: primary.id,
    encrypt,
    open,
    decrypt: (value, context) => open(value, context).plaintext,
    reencrypt(value, context) {
      const { plaintext, keyId } = open(value, context);
      return keyId === primary.id ? value : encrypt(plaintext, context);
    },
  };
}

/** SHA-256 hex of an API token: tokens are stored only as this hash and looked up by it. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/**
 * A new API token: the service prefix, then 32 random bytes in base64url (256 bits, so a plain
 * SHA-256 without salt or stretching is enough to store it).
 */
export function generateToken(prefix = 'sa_'): string {
  return prefix + randomBytes(32).toString('base64url');
}

/**
 * Constant-time string comparison. Both sides are hashed first so that inputs of different
 * lengths take the same time too (`timingSafeEqual` throws on unequal lengths).
 */
export function safeEqual(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}
