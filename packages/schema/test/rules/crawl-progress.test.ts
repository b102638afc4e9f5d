import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crawlProgressPercent } from '../../src/rules/crawl-progress.js';

describe('crawl progress', () => {
  it('is the whole percent of the URL budget crawled', () => {
    expect(crawlProgressPercent(0, 500)).toBe(0);
    expect(crawlProgressPercent(199, 200)).toBe(99);
    expect(crawlProgressPercent(200, 200)).toBe(100);
    expect(crawlProgressPercent(5, 0)).toBe(0);
  });

  it('stays within 0..100 and never falls as pages are crawled (property)', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(10_000), fc.nat(10_000), (crawled, more, budget) => {
        const now = crawlProgressPercent(crawled, budget);
        expect(now).toBeGreaterThanOrEqual(0);
        expect(now).toBeLessThanOrEqual(100);
        expect(Number.isInteger(now)).toBe(true);
        expect(crawlProgressPercent(crawled + more, budget)).toBeGreaterThanOrEqual(now);
      }),
    );
  });
});
