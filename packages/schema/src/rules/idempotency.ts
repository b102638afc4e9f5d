/**
 * Idempotency-Key rules shared by the server and the mock (
 * docs/decisions/idempotency.md): how the header is read, how long a key is kept and what makes
 * two requests "the same request". Each side stores records its own way.
 */

/** A key and its first answer are kept 24 h; after that the key may be used again. */
export const IDEMPOTENCY_KEY_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * The key of an `Idempotency-Key` header, or null when it is not a valid key (400
 * `idempotency.key_invalid`): 1 to 255 printable ASCII characters, sent bare or as a
 * structured-field string (`"abc"`, IETF draft).
 */
export function parseIdempotencyKey(header: string): string | null {
  let key = header.trim();
  if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) key = key.slice(1, -1).replace(/\\(["\\])/g, '$1');
  if (key.length === 0 || key.length > 255 || !/^[\x20-\x7e]+$/.test(key)) return null;
  return key;
}

/**
 * JSON with object keys sorted and undefined members dropped: the text both sides hash into a
 * request's fingerprint, so two bodies that differ only in key order are the same request.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The text a request's fingerprint hashes: the operation, its parsed path parameters, query and
 * body. A key reused with another fingerprint answers 409 `idempotency.key_reused`.
 */
export function requestFingerprintText(operationId: string, params: unknown, query: unknown, body: unknown): string {
  return canonicalJson([operationId, params, query, body ?? null]);
}
