/**
 * What the registry keeps of an analysed page for the cross-page checks (site-audit.ts): flags,
 * title and description hashes, the main text's content key and simhash. The page itself is
 * forgotten once this is kept.
 */
import { THRESHOLDS } from './checks.js';
import { Flag, type UrlRegistry } from './frontier.js';
import type { PageSummary } from './page-audit.js';
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

/** Stores page `id`'s digest in the registry; returns the text hashes for its record. */
export function keepDigest(reg: UrlRegistry, id: number, summary: PageSummary, mainWords: string[]): TextDigest {
  let flags = Flag.Html;
  if (summary.indexable) flags |= Flag.Indexable;
  if (summary.noindex) flags |= Flag.Noindex;
  if (summary.title) {
    flags |= Flag.HasTitle;
    reg.titleHash[id] = squashKey(summary.title);
  }
  if (summary.metaDescription) {
    flags |= Flag.HasDescription;
    reg.descriptionHash[id] = squashKey(summary.metaDescription);
  }
  const hash = contentHash(mainWords);
  const sim = simhash64(mainWords);
  if (hash) {
    flags |= Flag.HasText;
    reg.contentKey[id] = hash.key;
  }
  if (sim) {
    reg.simHi[id] = sim.hi;
    reg.simLo[id] = sim.lo;
    if (mainWords.length >= THRESHOLDS.nearDuplicateMinWords) flags |= Flag.NearDuplicateCandidate;
  }
  reg.set(id, flags);
  return { contentHash: hash?.hex ?? null, simhash: sim ? simhashHex(sim) : null };
}
