import { describe, expect, it } from 'vitest';
import { canonicalJson, parseIdempotencyKey, requestFingerprintText } from '../../src/rules/idempotency.js';

describe('idempotency', () => {
  it('reads a bare or structured-field key and refuses what is not printable ASCII', () => {
    expect(parseIdempotencyKey(' abc ')).toBe('abc');
    expect(parseIdempotencyKey('"a\\"b"')).toBe('a"b');
    for (const bad of ['', '""', 'é', 'x'.repeat(256), 'a\tb']) expect(parseIdempotencyKey(bad), bad).toBeNull();
  });

  it('fingerprints two bodies that differ only in key order alike', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] })).toBe('{"a":[{"d":2}],"b":1}');
    expect(requestFingerprintText('createProject', {}, {}, { url: 'u', name: 'n' })).toBe(
      requestFingerprintText('createProject', {}, {}, { name: 'n', url: 'u' }),
    );
    expect(requestFingerprintText('getMe', {}, {}, undefined)).toBe('["getMe",{},{},null]');
  });
});
