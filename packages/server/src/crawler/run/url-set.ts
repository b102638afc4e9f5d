/**
 * The crawl's seen-URL set: URL → id and id → URL without a JavaScript string or a Map entry per
 * URL. URLs are stored end to end in one byte arena (UTF-8; a normalised URL is ASCII), found by
 * an open-addressing table of ids keyed by a hash of their bytes. About URL length + 16 bytes per
 * URL against about 130 with a Map of strings, and nothing per URL for the garbage collector to
 * trace, which matters at a million URLs. `url(id)` makes a new string each time it is asked.
 */

const EMPTY = -1;

export class UrlSet {
  private arena = Buffer.allocUnsafe(1 << 16);
  private used = 0;
  /** Per id: where its bytes start; ends[id] where they end. */
  private starts = new Float64Array(1024);
  private ends = new Float64Array(1024);
  private hashes = new Uint32Array(1024);
  private count = 0;
  private slots = new Int32Array(2048).fill(EMPTY);
  private scratch = Buffer.allocUnsafe(4096);

  get size(): number {
    return this.count;
  }

  /** The id of `url`, or undefined. */
  get(url: string): number | undefined {
    const hash = asciiHash(url);
    let found: number;
    if (hash !== NOT_ASCII) found = this.findAscii(url, hash);
    else {
      const length = this.encode(url);
      found = this.find(this.hashOf(length), length);
    }
    return found === EMPTY ? undefined : found;
  }

  /** Adds `url` (or finds it): its id, and whether it is new. Ids are 0, 1, 2… in order of addition. */
  add(url: string): { id: number; created: boolean } {
    let hash = asciiHash(url);
    const known = hash === NOT_ASCII ? EMPTY : this.findAscii(url, hash);
    if (known !== EMPTY) return { id: known, created: false };
    const length = this.encode(url);
    if (hash === NOT_ASCII) {
      hash = this.hashOf(length);
      const found = this.find(hash, length);
      if (found !== EMPTY) return { id: found, created: false };
    }
    const id = this.count++;
    if (id >= this.starts.length) {
      this.starts = growFloat(this.starts);
      this.ends = growFloat(this.ends);
      const hashes = new Uint32Array(this.hashes.length * 2);
      hashes.set(this.hashes);
      this.hashes = hashes;
    }
    if (this.used + length > this.arena.length) {
      const arena = Buffer.allocUnsafe(Math.max(this.used + length, this.arena.length * 2));
      this.arena.copy(arena, 0, 0, this.used);
      this.arena = arena;
    }
    this.scratch.copy(this.arena, this.used, 0, length);
    this.starts[id] = this.used;
    this.ends[id] = this.used + length;
    this.used += length;
    this.hashes[id] = hash;
    // At most half full, so that probes stay short.
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(id);
    return { id, created: true };
  }

  url(id: number): string {
    return this.arena.toString('utf8', this.starts[id], this.ends[id]);
  }

  /** Writes `url` into the scratch buffer (grown if needed); its length in bytes. */
  private encode(url: string): number {
    const needed = Buffer.byteLength(url);
    if (needed > this.scratch.length) this.scratch = Buffer.allocUnsafe(Math.max(needed, this.scratch.length * 2));
    return this.scratch.write(url, 0, 'utf8');
  }

  /** FNV-1a over the scratch's first `length` bytes, finished by murmur3's mix. */
  private hashOf(length: number): number {
    let h = 0x811c9dc5;
    const bytes = this.scratch;
    for (let i = 0; i < length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
    return finish(h);
  }

  /** `find` for an ASCII string, read from the string itself: its characters are its UTF-8 bytes. */
  private findAscii(url: string, hash: number): number {
    const mask = this.slots.length - 1;
    const length = url.length;
    const arena = this.arena;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot];
      if (id === EMPTY) return EMPTY;
      const start = this.starts[id];
      if (this.hashes[id] !== hash || this.ends[id] - start !== length) continue;
      let i = 0;
      while (i < length && arena[start + i] === url.charCodeAt(i)) i++;
      if (i === length) return id;
    }
  }

  private find(hash: number, length: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot];
      if (id === EMPTY) return EMPTY;
      if (this.hashes[id] === hash && this.ends[id] - this.starts[id] === length && this.sameBytes(this.starts[id], length)) return id;
    }
  }

  /**
   * Whether the arena's `length` bytes at `start` are the scratch's first ones. A loop, not
   * `Buffer.compare`: for a URL's few dozen bytes the native call's argument checks cost more
   * than the comparison (1 % of the crawl thread on a templated site).
   */
  private sameBytes(start: number, length: number): boolean {
    const arena = this.arena;
    const scratch = this.scratch;
    for (let i = 0; i < length; i++) if (arena[start + i] !== scratch[i]) return false;
    return true;
  }

  private place(id: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hashes[id] & mask;
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.slots[slot] = id;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size).fill(EMPTY);
    for (let id = 0; id < this.count; id++) this.place(id);
  }
}

/** asciiHash's answer for a string with a character beyond ASCII: not a hash (those are unsigned). */
const NOT_ASCII = -1;

function finish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * `hashOf` of an ASCII string's UTF-8 bytes, read from its characters; NOT_ASCII past ASCII. A
 * normalised URL is ASCII, so a look-up usually needs neither the UTF-8 copy into the scratch
 * nor its two native calls (the links of each page are looked up: 2 % of the crawl thread).
 */
function asciiHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return NOT_ASCII;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return finish(h);
}

function growFloat(array: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const next = new Float64Array(array.length * 2);
  next.set(array);
  return next;
}
