/**
 * On SQLite the comparison's copies are written in batches, each in its own short transaction,
 * so that the server's single connection serves other requests between them instead of waiting
 * for the whole comparison (docs/decisions/crawl-changes.md). An issue batch is a range of
 * `url_hash` (hex SHA-256, evenly spread) holding about ISSUES_PER_BATCH occurrences, all checks
 * together: each (check, URL) pair falls in exactly one batch, each batch is a range of the
 * by-page index (migration 029), read in hash order, so the look-ups of the same pairs in the
 * other crawl walk its by-page index in order too. Page batches are ranges of `seq`.
 */
export const ISSUES_PER_BATCH = 50_000;
export const PAGES_PER_BATCH = 50_000;

/** A condition on the issues `i` of one crawl, with its bindings. */
export interface IssueBatch {
  sql: string;
  bindings: string[];
}

/** `k`/`parts` of the way through the 4-hex-digit prefixes of `url_hash`. */
const hashBound = (k: number, parts: number) => Math.floor((k * 0x10000) / parts).toString(16).padStart(4, '0');

/** The batches covering every issue of a crawl, from its occurrences per check. */
export function issueBatches(perCheck: { name: string; occurrences: number }[], limit = ISSUES_PER_BATCH): IssueBatch[] {
  const total = perCheck.reduce((n, c) => n + c.occurrences, 0);
  const parts = Math.min(0x10000, Math.max(1, Math.ceil(total / limit)));
  const batches: IssueBatch[] = [];
  for (let k = 0; k < parts; k++) {
    // The first batch starts at '' (every hash is at least that): a range, so the by-page index is the one read.
    const sql = ['i.url_hash >= ?'];
    const bindings = [k > 0 ? hashBound(k, parts) : ''];
    if (k < parts - 1) {
      sql.push('i.url_hash < ?');
      bindings.push(hashBound(k + 1, parts));
    }
    batches.push({ sql: sql.join(' and '), bindings });
  }
  return batches;
}

/** Half-open `seq` ranges covering min … max (none for a crawl without pages). */
export function seqRanges(min: number | null, max: number | null, size = PAGES_PER_BATCH): [number, number][] {
  const ranges: [number, number][] = [];
  if (min === null || max === null) return ranges;
  for (let from = min; from <= max; from += size) ranges.push([from, from + size]);
  return ranges;
}
