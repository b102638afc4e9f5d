/**
 * The crawl's memory: the seen-URL set (URL → id, url-set.ts: bytes in one arena) and, per id, a compact digest in typed arrays
 * (struct of arrays, about 60 bytes per URL) holding what the cross-page checks need once the
 * page itself is gone: status, flags, depth, inlinks, title/description/content hashes, simhash,
 * canonical and redirect targets. Nothing else about a page outlives its analysis.
 */
import type { DiscoveredVia } from '../crawl-types.js';
import { UrlSet } from './url-set.js';

export enum State {
  /** Known (from a sitemap) but not queued. */
  Known = 0,
  Queued = 1,
  Active = 2,
  Done = 3,
}

/** Bits of `flags`. */
export enum Flag {
  Internal = 1 << 0,
  Html = 1 << 1,
  Indexable = 1 << 2,
  Noindex = 1 << 3,
  Protection = 1 << 4,
  Blocked = 1 << 5,
  InSitemap = 1 << 6,
  Failed = 1 << 7,
  HasTitle = 1 << 8,
  HasDescription = 1 << 9,
  HasText = 1 << 10,
  NearDuplicateCandidate = 1 << 11,
  Start = 1 << 12,
  Loop = 1 << 13,
  /** A 2xx HTML page that is a meta-refresh redirect (page-audit.ts `isRefreshRedirect`). */
  RefreshRedirect = 1 << 14,
  /** Reached with no click path from the start: only through the sitemaps (and links from such pages). */
  NoClickDepth = 1 << 15,
}

/** `language` column: the bit saying the page's URL named its language (it declares none). */
export const LANGUAGE_FROM_URL = 0x8000;

/** `canonical` and `redirect` columns: no target. */
export const NO_ID = -1;
/** `canonical` column: the canonical points off the site or to a URL that cannot be crawled. */
export const UNUSABLE_ID = -2;
/** `canonical` column: the canonical points to another site (the page's canonical_cross_domain). */
export const OFF_SITE_ID = -3;
/** `finalStatus` column: the end of the chain is not known (yet). */
export const CHAIN_UNKNOWN = 0;
/** `finalStatus` column: the chain ended without an answer (fetch error, loop, bad Location). */
export const CHAIN_FAILED = -1;
/** True when a `canonical` or `redirect` value names a registered URL (not NO_ID, UNUSABLE_ID or OFF_SITE_ID). */
export function isId(value: number): boolean {
  return value >= 0;
}
/** True when recorded URL `id` answered 2xx itself (not a challenge page). */
export function isFetchedOk(reg: UrlRegistry, id: number): boolean {
  return reg.state[id] === State.Done && reg.status[id] >= 200 && reg.status[id] < 300 && !reg.has(id, Flag.Protection);
}

/** True when `id` is an indexable page: internal, 2xx, HTML, neither noindex nor canonicalised elsewhere. */
export function isIndexable2xx(reg: UrlRegistry, id: number): boolean {
  return isFetchedOk(reg, id) && reg.has(id, Flag.Internal) && reg.has(id, Flag.Html) && reg.has(id, Flag.Indexable);
}

/** `DepthFrontier.lowestDepth`: nothing waits. */
export const NO_DEPTH = -1;

const VIA: DiscoveredVia[] = ['start', 'link', 'redirect', 'canonical', 'hreflang', 'sitemap', 'external'];

/** A FIFO of ids without the O(n) cost of Array.shift. */
export class IdQueue {
  private items: number[] = [];
  private head = 0;

  push(id: number): void {
    this.items.push(id);
  }

  shift(): number | undefined {
    if (this.head >= this.items.length) return undefined;
    const id = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return id;
  }

  peek(): number | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  /** Takes every waiting id out, in order. */
  drain(): number[] {
    const ids = this.items.slice(this.head);
    this.items = [];
    this.head = 0;
    return ids;
  }

  get length(): number {
    return this.items.length - this.head;
  }
}

type Column = Int32Array | Uint32Array | Float64Array | Uint8Array | Int16Array | Uint16Array;

function grow<T extends Column>(column: T, size: number): T {
  if (size <= column.length) return column;
  const next = new (column.constructor as new (n: number) => T)(Math.max(size, column.length * 2));
  next.set(column);
  return next;
}

export class UrlRegistry {
  private readonly urls = new UrlSet();
  state = new Uint8Array(1024);
  via = new Uint8Array(1024);
  depth = new Int32Array(1024);
  flags = new Uint16Array(1024);
  inlinks = new Uint32Array(1024);
  /** HTTP status of the URL's own response; 0 when none. */
  status = new Int16Array(1024);
  /** Status at the end of this URL's redirect chain, CHAIN_UNKNOWN or CHAIN_FAILED. */
  finalStatus = new Int16Array(1024);
  titleHash = new Float64Array(1024);
  descriptionHash = new Float64Array(1024);
  titleExact = new Float64Array(1024);
  descriptionExact = new Float64Array(1024);
  contentKey = new Float64Array(1024);
  simHi = new Uint32Array(1024);
  simLo = new Uint32Array(1024);
  /** id of the canonical target, NO_ID, UNUSABLE_ID or OFF_SITE_ID. */
  canonical = new Int32Array(1024);
  /** id of the redirect target; NO_ID when none or off the crawl. */
  redirect = new Int32Array(1024);
  /** 1 + the index of the first sitemap file listing the URL (site/site-files.ts `sitemapFiles`); 0 when none. */
  sitemapFile = new Uint8Array(1024);
  /**
   * 1 + the index in `languages` of the page's language version (page/page-language.ts), with
   * LANGUAGE_FROM_URL set when the URL named it (the page declares none); 0 when unknown.
   */
  language = new Uint16Array(1024);
  /**
   * Where the URL stands in the crawl's order: until its level opens, the first place a page of
   * the level above named it (that page's rank × 2^21 + the link's index on it); once opened, its
   * own rank. The budget's cut follows it, so it falls on the same URLs whatever the timing
   * (run/fetch-scheduler.ts).
   */
  order = new Float64Array(1024);
  /** The language versions seen, in order (`language` indexes it). */
  readonly languages: string[] = [];
  private readonly languageIndex = new Map<string, number>();

  get size(): number {
    return this.urls.size;
  }

  get(url: string): number | undefined {
    return this.urls.get(url);
  }

  url(id: number): string {
    return this.urls.url(id);
  }

  /** Registers a URL (or returns its id); `created` tells whether it was new. */
  add(url: string, depth: number, via: DiscoveredVia): { id: number; created: boolean } {
    const { id, created } = this.urls.add(url);
    if (!created) return { id, created };
    const n = id + 1;
    this.state = grow(this.state, n);
    this.via = grow(this.via, n);
    this.depth = grow(this.depth, n);
    this.flags = grow(this.flags, n);
    this.inlinks = grow(this.inlinks, n);
    this.status = grow(this.status, n);
    this.finalStatus = grow(this.finalStatus, n);
    this.titleHash = grow(this.titleHash, n);
    this.descriptionHash = grow(this.descriptionHash, n);
    this.titleExact = grow(this.titleExact, n);
    this.descriptionExact = grow(this.descriptionExact, n);
    this.contentKey = grow(this.contentKey, n);
    this.simHi = grow(this.simHi, n);
    this.simLo = grow(this.simLo, n);
    this.canonical = grow(this.canonical, n);
    this.redirect = grow(this.redirect, n);
    this.sitemapFile = grow(this.sitemapFile, n);
    this.language = grow(this.language, n);
    this.order = grow(this.order, n);
    this.depth[id] = depth;
    this.via[id] = VIA.indexOf(via);
    this.canonical[id] = NO_ID;
    this.redirect[id] = NO_ID;
    return { id, created: true };
  }

  /** Records page `id`'s language version (a lower-cased tag); at most 32,767 distinct ones are told apart. */
  setLanguage(id: number, language: { tag: string; fromUrl: boolean } | null): void {
    if (language === null) return;
    let index = this.languageIndex.get(language.tag);
    if (index === undefined) {
      if (this.languages.length >= LANGUAGE_FROM_URL - 1) return;
      index = this.languages.push(language.tag);
      this.languageIndex.set(language.tag, index);
    }
    this.language[id] = index | (language.fromUrl ? LANGUAGE_FROM_URL : 0);
  }

  /** Page `id`'s language version, and whether its URL named it; null when unknown. */
  languageOf(id: number): { tag: string; fromUrl: boolean } | null {
    const value = this.language[id];
    const index = value & (LANGUAGE_FROM_URL - 1);
    return index === 0 ? null : { tag: this.languages[index - 1], fromUrl: (value & LANGUAGE_FROM_URL) !== 0 };
  }

  discoveredVia(id: number): DiscoveredVia {
    return VIA[this.via[id]];
  }

  setVia(id: number, via: DiscoveredVia): void {
    this.via[id] = VIA.indexOf(via);
  }

  has(id: number, flag: Flag): boolean {
    return (this.flags[id] & flag) !== 0;
  }

  set(id: number, flag: Flag): void {
    this.flags[id] |= flag;
  }
}

/** Internal ids waiting to be fetched, one FIFO per click depth, lowest depth first. */
export class DepthFrontier {
  private readonly buckets: IdQueue[] = [];
  private count = 0;

  push(id: number, depth: number): void {
    while (this.buckets.length <= depth) this.buckets.push(new IdQueue());
    this.buckets[depth].push(id);
    this.count++;
  }

  /** Lowest depth with a waiting entry, or NO_DEPTH. Entries may be stale: the caller re-checks. */
  lowestDepth(): number {
    for (let d = 0; d < this.buckets.length; d++) if (this.buckets[d].length > 0) return d;
    return NO_DEPTH;
  }

  peek(depth: number): number | undefined {
    return this.buckets[depth]?.peek();
  }

  shift(depth: number): number | undefined {
    const id = this.buckets[depth]?.shift();
    if (id !== undefined) this.count--;
    return id;
  }

  /** Takes every id waiting at `depth` out, in order. */
  drain(depth: number): number[] {
    const ids = this.buckets[depth]?.drain() ?? [];
    this.count -= ids.length;
    return ids;
  }

  get length(): number {
    return this.count;
  }
}
