/**
 * On SQLite the comparison's copies are written in batches, each in its own short transaction,
 * so that the server's single connection serves other requests between them instead of waiting
 * for the whole comparison (docs/decisions/crawl-changes.md). An issue batch holds whole checks up
 * to ISSUES_PER_BATCH occurrences, or one larger check's URLs in a range of `url_hash` (hex
 * SHA-256, evenly spread): each (check, URL) pair falls in exactly one batch, and each batch is a
 * seek on the pair index (migration 014). Page batches are ranges of `seq`.
 */
export const ISSUES_PER_BATCH = 50_000;
export const PAGES_PER_BATCH = 50_000;
/** Bound parameters per statement stay far below SQLite's limit. */
const NAMES_PER_BATCH = 500;

/** A condition on the issues `i` of one crawl, with its bindings. */
export interface IssueBatch {
  sql: string;
  bindings: string[];
}

/** `k`/`parts` of the way through the 4-hex-digit prefixes of `url_hash`. */
const hashBound = (k: number, parts: number) => Math.floor((k * 0x10000) / parts).toString(16).padStart(4, '0');

/** The batches covering every issue of a crawl, from its occurrences per check. */
export function issueBatches(perCheck: { name: string; occurrences: number }[], limit = ISSUES_PER_BATCH): IssueBatch[] {
  const occurrences = new Map<string, number>();
  for (const c of perCheck) occurrences.set(c.name, (occurrences.get(c.name) ?? 0) + c.occurrences);
  const batches: IssueBatch[] = [];
  let names: string[] = [];
  let size = 0;
  const flush = () => {
    if (names.length) batches.push({ sql: `i.name in (${names.map(() => '?').join(', ')})`, bindings: names });
    names = [];
    size = 0;
  };
  for (const [name, count] of occurrences) {
    if (count > limit) {
      const parts = Math.min(0x10000, Math.ceil(count / limit));
      for (let k = 0; k < parts; k++) {
        const sql = ['i.name = ?'];
        const bindings = [name];
        if (k > 0) {
          sql.push('i.url_hash >= ?');
          bindings.push(hashBound(k, parts));
        }
        if (k < parts - 1) {
          sql.push('i.url_hash < ?');
          bindings.push(hashBound(k + 1, parts));
        }
        batches.push({ sql: sql.join(' and '), bindings });
      }
      continue;
    }
    if (size + count > limit || names.length === NAMES_PER_BATCH) flush();
    names.push(name);
    size += count;
  }
  flush();
  return batches;
}

/** Half-open `seq` ranges covering min … max (none for a crawl without pages). */
export function seqRanges(min: number | null, max: number | null, size = PAGES_PER_BATCH): [number, number][] {
  const ranges: [number, number][] = [];
  if (min === null || max === null) return ranges;
  for (let from = min; from <= max; from += size) ranges.push([from, from + size]);
  return ranges;
}
