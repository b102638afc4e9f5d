/**
 * Deterministic randomness. Every id, token, secret and generated value of the mock comes from
 * here, so one seed always yields the same data and `reset()` can replay it exactly. Written by
 * hand (a few lines) because the mock must run in browsers without `node:crypto`, and
 * `crypto.getRandomValues` is, by design, not seedable.
 */

/** A seeded pseudo-random source. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  bytes(count: number): Uint8Array;
  /** A UUID v4-shaped identifier. */
  uuid(): string;
}

/** FNV-1a, 32 bits: a stable hash of a string, used to derive sub-seeds and checksums. */
export function hashString(text: string, basis = 0x811c9dc5): number {
  let hash = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** 16 hex characters from two independent FNV passes: ETags and fingerprints. */
export function hashHex(text: string): string {
  const a = hashString(text);
  const b = hashString(text, 0x9747b28c);
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/** sfc32 (Small Fast Counter): good statistical quality, four 32-bit words of state. */
export function createRandom(seed: number | string): Random {
  const base = typeof seed === 'number' ? seed >>> 0 : hashString(seed);
  // splitmix32 spreads a small seed (1, 2, 3…) over the four state words.
  let s = base;
  const split = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split();
  let b = split();
  let c = split();
  let d = split();
  const next32 = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) next32();

  const random: Random = {
    next: () => next32() / 0x1_0000_0000,
    int: (min, max) => min + Math.floor(random.next() * (max - min + 1)),
    pick: (items) => items[Math.floor(random.next() * items.length)],
    bytes(count) {
      const out = new Uint8Array(count);
      for (let i = 0; i < count; i++) out[i] = next32() & 0xff;
      return out;
    },
    uuid() {
      const b = random.bytes(16);
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
  return random;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A string of `length` characters taken from [A-Za-z0-9]. */
export function randomAlphanumeric(random: Random, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[random.int(0, ALPHANUMERIC.length - 1)];
  return out;
}

/** Standard base64 of bytes, with `btoa` (present in browsers and Node 20). */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** base64url of a UTF-8 string, without padding. */
export function base64UrlEncode(text: string): string {
  return base64(new TextEncoder().encode(text)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Inverse of base64UrlEncode; throws on malformed input. */
export function base64UrlDecode(text: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new TypeError('not base64url');
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}
