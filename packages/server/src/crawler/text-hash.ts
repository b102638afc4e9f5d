/**
 * Compact fingerprints for cross-page checks: a 53-bit string hash (titles, descriptions), a
 * content hash of the extracted main text, and a 64-bit simhash (Charikar) for near-duplicates.
 * The simhash is held as two unsigned 32-bit halves because bitwise operators on JS numbers are
 * 32-bit and BigInt arithmetic is far slower per feature.
 */
import { createHash } from 'node:crypto';

/** cyrb53: a fast 53-bit string hash (fits a JS number exactly), for grouping equal strings. */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Murmur3 (32-bit) over UTF-16 code units: one half of a 64-bit feature hash. */
function murmur32(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    let k = text.charCodeAt(i);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= text.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export interface Simhash {
  hi: number;
  lo: number;
}

/** Words normalised for fingerprints: lower case, letters and digits only. */
export function fingerprintWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * 64-bit simhash over word 3-shingles (single words when the text is shorter), so that word
 * order matters and one changed word moves few features.
 */
export function simhash64(words: readonly string[]): Simhash | null {
  if (words.length === 0) return null;
  const weights = new Int32Array(64);
  const size = words.length >= 3 ? 3 : 1;
  for (let i = 0; i + size <= words.length; i++) {
    const feature = size === 3 ? `${words[i]} ${words[i + 1]} ${words[i + 2]}` : words[i];
    const hi = murmur32(feature, 0x9747b28c);
    const lo = murmur32(feature, 0x5bd1e995);
    for (let b = 0; b < 32; b++) {
      weights[b] += (hi >>> b) & 1 ? 1 : -1;
      weights[32 + b] += (lo >>> b) & 1 ? 1 : -1;
    }
  }
  let hi = 0;
  let lo = 0;
  for (let b = 0; b < 32; b++) {
    if (weights[b] > 0) hi |= 1 << b;
    if (weights[32 + b] > 0) lo |= 1 << b;
  }
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

export function hammingDistance(a: Simhash, b: Simhash): number {
  return popcount32((a.hi ^ b.hi) >>> 0) + popcount32((a.lo ^ b.lo) >>> 0);
}

/** Similarity in percent: 100 × (1 − Hamming distance / 64). */
export function simhashSimilarity(a: Simhash, b: Simhash): number {
  return 100 * (1 - hammingDistance(a, b) / 64);
}

export function simhashHex(s: Simhash): string {
  return s.hi.toString(16).padStart(8, '0') + s.lo.toString(16).padStart(8, '0');
}

/** SHA-1 of the normalised words: equal texts up to case, spacing and punctuation collide. */
export function contentHash(words: readonly string[]): { hex: string; key: number } | null {
  if (words.length === 0) return null;
  const hex = createHash('sha1').update(words.join(' ')).digest('hex').slice(0, 16);
  return { hex, key: parseInt(hex.slice(0, 13), 16) };
}
