/**
 * Compact fingerprints for cross-page checks: a 53-bit string hash (titles, descriptions), a
 * content hash of the extracted main text, and a 64-bit simhash (Charikar) for near-duplicates.
 * The simhash is held as two unsigned 32-bit halves because bitwise operators on JS numbers are
 * 32-bit and BigInt arithmetic is far slower per feature.
 */
import { hash } from 'node:crypto';

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

export interface Simhash {
  hi: number;
  lo: number;
}

const ALNUM_RUN = /[\p{L}\p{N}]+/gu;
/** A word of text: runs of letters and digits joined by an apostrophe or a hyphen (it's, well-known). */
export const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** What joins a word's runs (WORD); hoisted: a literal in the loop is a new RegExp object each word. */
const JOINER = /['’-]/;

/** Words normalised for fingerprints: each word lower-cased, split into its letter and digit runs. */
export function fingerprintWords(text: string): string[] {
  const out: string[] = [];
  appendFingerprintWords(text.match(WORD) ?? [], out, Infinity);
  return out;
}

/**
 * `fingerprintWords` of text whose words (WORD) are already matched, appended to `out` up to
 * `cap`: the text analysis counts words with WORD anyway, so the text is not scanned twice.
 */
export function appendFingerprintWords(matched: readonly string[], out: string[], cap: number): void {
  for (const word of matched) {
    if (out.length >= cap) return;
    const lower = word.toLowerCase();
    // A joined word, or one whose lower case changed length (İ → i̇), splits into its letter and digit runs.
    if (lower.length === word.length && !JOINER.test(lower)) out.push(lower);
    else for (const part of lower.match(ALNUM_RUN) ?? []) if (out.length < cap) out.push(part);
  }
}

/** One round of Murmur3 (32-bit), for one 32-bit value (a UTF-16 code unit, or a word's hash). */
function murmurRound(h: number, code: number): number {
  let k = Math.imul(code, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function murmurFinal(h: number, length: number): number {
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const SEED_HI = 0x9747b28c;
const SEED_LO = 0x5bd1e995;

/**
 * Counts features by nibble: `nibbles[(half * 8 + position) * 16 + value]` is how many features'
 * half had `value` at that nibble (8 increments per 32-bit half, where counting each set bit took
 * about 16); `majorityBits` turns them into per-bit counts once per page.
 */
function countNibbles(nibbles: Int32Array, half: number, hash: number): void {
  const at = half * 128;
  for (let position = 0; position < 8; position++) nibbles[at + position * 16 + ((hash >>> (4 * position)) & 15)]++;
}

/** The bits of a half that more than half of `features` set. */
function majorityBits(nibbles: Int32Array, half: number, features: number): number {
  let bits = 0;
  for (let position = 0; position < 8; position++) {
    const at = half * 128 + position * 16;
    for (let bit = 0; bit < 4; bit++) {
      let ones = 0;
      for (let value = 1 << bit; value < 16; value = (value + 1) | (1 << bit)) ones += nibbles[at + value];
      if (2 * ones > features) bits |= 1 << (4 * position + bit);
    }
  }
  return bits >>> 0;
}

/**
 * 64-bit simhash over word 3-shingles (single words when the text is shorter), so that word
 * order matters and one changed word moves few features. Each word is hashed once per half
 * (Murmur3 32-bit over its UTF-16 code units, seeds 0x9747b28c and 0x5bd1e995) and a shingle's feature is the murmur of its three
 * word hashes, so a word's characters are read once instead of once per shingle it belongs to
 * (this was a hot spot of the crawl benchmark). A bit's weight is (features setting it) −
 * (features clearing it).
 */
export function simhash64(words: readonly string[]): Simhash | null {
  const n = words.length;
  if (n === 0) return null;
  const nibbles = new Int32Array(256);
  const wordHi = new Int32Array(n);
  const wordLo = new Int32Array(n);
  // A word's two halves: Murmur3 (32-bit) over its UTF-16 code units with each seed, in one pass.
  for (let i = 0; i < n; i++) {
    const word = words[i];
    let hi = SEED_HI | 0;
    let lo = SEED_LO | 0;
    for (let k = 0; k < word.length; k++) {
      const code = word.charCodeAt(k);
      hi = murmurRound(hi, code);
      lo = murmurRound(lo, code);
    }
    wordHi[i] = murmurFinal(hi, word.length);
    wordLo[i] = murmurFinal(lo, word.length);
  }
  let features = 0;
  if (n < 3) {
    for (let i = 0; i < n; i++) {
      countNibbles(nibbles, 1, wordHi[i] >>> 0);
      countNibbles(nibbles, 0, wordLo[i] >>> 0);
      features++;
    }
  } else {
    for (let i = 0; i + 3 <= n; i++) {
      const hi = murmurRound(murmurRound(murmurRound(SEED_HI | 0, wordHi[i]), wordHi[i + 1]), wordHi[i + 2]);
      const lo = murmurRound(murmurRound(murmurRound(SEED_LO | 0, wordLo[i]), wordLo[i + 1]), wordLo[i + 2]);
      countNibbles(nibbles, 1, murmurFinal(hi, 3));
      countNibbles(nibbles, 0, murmurFinal(lo, 3));
      features++;
    }
  }
  // Bit b is set when more features set it than clear it: ones > features − ones.
  return { hi: majorityBits(nibbles, 1, features), lo: majorityBits(nibbles, 0, features) };
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
  // One-shot `hash`: a Hash object a page cost more than the hashing of its few KB.
  const hex = hash('sha1', words.join(' '), 'hex').slice(0, 16);
  return { hex, key: parseInt(hex.slice(0, 13), 16) };
}
