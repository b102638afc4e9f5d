/**
 * What the registry keeps of an analysed page for the cross-page checks (site/site-checks.ts): flags,
 * title and description hashes, the main text's content key and simhash. The page itself is
 * forgotten once this is kept.
 */
import { THRESHOLDS } from '../checks.js';
import { Flag, type UrlRegistry } from '../run/url-registry.js';
import type { PageSummary } from './page-facts.js';
import { contentHash, hash53, simhash64, simhashHex } from './text-hash.js';

/** The hex forms of the text hashes, for the page record. */
export interface TextDigest {
  contentHash: string | null;
  simhash: string | null;
}

/** A title or description's key: case and spacing do not make two texts different. */
export function squashKey(text: string): number {
  return hash53(text.replace(/\s+/g, ' ').trim().toLowerCase());
}

/** squashKey without lowercasing. */
function exactKey(text: string): number {
  return hash53(text.replace(/\s+/g, ' ').trim());
}

/**
 * What the registry keeps of a page, computed where the page is analysed (possibly another
 * thread: plain numbers and strings) and kept by `keepDigest` where the registry is.
 */
export interface PageDigest {
  flags: number;
  titleHash: number;
  descriptionHash: number;
  /** The same hashes without lowercasing: two equal keys whose exact hashes differ differ only by case. */
  titleExact: number;
  descriptionExact: number;
  contentKey: number;
  simHi: number;
  simLo: number;
  /** The hex forms of the text hashes, for the page record. */
  text: TextDigest;
}

/** The digest of an analysed page: its flags and the hashes of its title, description and main words. */
export function digestOf(summary: PageSummary, mainWords: string[]): PageDigest {
  let flags = Flag.Html;
  // A meta-refresh redirect is a redirect: no title, description or text of its own to compare.
  if (summary.refreshRedirect) return { flags: flags | Flag.RefreshRedirect, titleHash: 0, descriptionHash: 0, titleExact: 0, descriptionExact: 0, contentKey: 0, simHi: 0, simLo: 0, text: { contentHash: null, simhash: null } };
  if (summary.indexable) flags |= Flag.Indexable;
  if (summary.noindex) flags |= Flag.Noindex;
  const digest: PageDigest = { flags, titleHash: 0, descriptionHash: 0, titleExact: 0, descriptionExact: 0, contentKey: 0, simHi: 0, simLo: 0, text: { contentHash: null, simhash: null } };
  if (summary.title) {
    digest.flags |= Flag.HasTitle;
    digest.titleHash = squashKey(summary.title);
    digest.titleExact = exactKey(summary.title);
  }
  if (summary.metaDescription) {
    digest.flags |= Flag.HasDescription;
    digest.descriptionHash = squashKey(summary.metaDescription);
    digest.descriptionExact = exactKey(summary.metaDescription);
  }
  const hash = contentHash(mainWords);
  if (hash) {
    digest.flags |= Flag.HasText;
    digest.contentKey = hash.key;
    digest.text.contentHash = hash.hex;
  }
  const sim = simhash64(mainWords);
  if (sim) {
    digest.simHi = sim.hi;
    digest.simLo = sim.lo;
    digest.text.simhash = simhashHex(sim);
    if (mainWords.length >= THRESHOLDS.nearDuplicateMinWords) digest.flags |= Flag.NearDuplicateCandidate;
  }
  return digest;
}

/** Stores page `id`'s digest in the registry; returns the text hashes for its record. */
export function keepDigest(reg: UrlRegistry, id: number, digest: PageDigest): TextDigest {
  if (digest.flags & Flag.HasTitle) {
    reg.titleHash[id] = digest.titleHash;
    reg.titleExact[id] = digest.titleExact;
  }
  if (digest.flags & Flag.HasDescription) {
    reg.descriptionHash[id] = digest.descriptionHash;
    reg.descriptionExact[id] = digest.descriptionExact;
  }
  if (digest.flags & Flag.HasText) reg.contentKey[id] = digest.contentKey;
  if (digest.text.simhash !== null) {
    reg.simHi[id] = digest.simHi;
    reg.simLo[id] = digest.simLo;
  }
  reg.set(id, digest.flags);
  return digest.text;
}
