import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueBatches, seqRanges } from '../../src/modules/crawls/change-batches.js';

/** Whether the issue (name, url_hash) meets a batch's condition, evaluated as SQL would. */
function meets(batch: { sql: string; bindings: string[] }, name: string, hash: string): boolean {
  const values = [...batch.bindings];
  return batch.sql.split(' and ').every((term) => {
    if (term.startsWith('i.name in')) {
      const names = values.splice(0, term.split('?').length - 1);
      return names.includes(name);
    }
    const value = values.shift()!;
    if (term === 'i.name = ?') return name === value;
    if (term === 'i.url_hash >= ?') return hash >= value;
    if (term === 'i.url_hash < ?') return hash < value;
    throw new Error(term);
  });
}

describe('comparison batches on SQLite', () => {
  it('puts every (check, URL) pair in exactly one batch, ranges of URL hash of about the limit each', () => {
    const counts = [
      { name: 'title_missing', occurrences: 180_000 },
      { name: 'h1_missing', occurrences: 30_000 },
      { name: 'h1_missing', occurrences: 5_000 }, // the same check under another severity
      { name: 'thin_content', occurrences: 40_000 },
      { name: 'noindex', occurrences: 3 },
    ];
    const batches = issueBatches(counts, 50_000);
    // 255,003 occurrences: 6 ranges, each a range of the by-page index.
    expect(batches).toHaveLength(6);
    expect(batches.every((b) => b.sql.startsWith('i.url_hash >= ?'))).toBe(true);
    expect(issueBatches([{ name: 'noindex', occurrences: 3 }], 50_000)).toEqual([{ sql: 'i.url_hash >= ?', bindings: [''] }]);
    const hashes = Array.from({ length: 400 }, (_, i) => createHash('sha256').update(String(i)).digest('hex'));
    for (const name of ['title_missing', 'h1_missing', 'thin_content', 'noindex']) {
      for (const hash of [...hashes, '', 'not-hex', '0000', 'ffff', 'ffffffff']) {
        expect(batches.filter((b) => meets(b, name, hash)), `${name} ${hash}`).toHaveLength(1);
      }
    }
    // A check without occurrences of its own still falls in exactly one range: ranges are of URLs, not checks.
    expect(batches.filter((b) => meets(b, 'unknown_check', hashes[0]))).toHaveLength(1);
  });

  it('covers every page seq in ranges, and none for a crawl without pages', () => {
    expect(seqRanges(0, 120_000, 50_000)).toEqual([
      [0, 50_000],
      [50_000, 100_000],
      [100_000, 150_000],
    ]);
    expect(seqRanges(7, 7, 50_000)).toEqual([[7, 50_007]]);
    expect(seqRanges(null, null)).toEqual([]);
  });
});
