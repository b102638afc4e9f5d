import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attributeScoreChange, attributionParts, exactScoreOf, roundToTenths, type ScoredCheck, type ScoreData } from '../../src/rules/index.js';

// Checks of every basis and severity: a page check, a check of URLs, a site-wide one, a notice.
const NAMES: Record<string, Pick<ScoredCheck, 'severity' | 'category'>> = {
  http_page: { severity: 'error', category: 'http' },
  broken_internal_link: { severity: 'error', category: 'links_images' },
  http_4xx: { severity: 'error', category: 'http' },
  description_missing: { severity: 'warning', category: 'titles' },
  title_duplicate: { severity: 'warning', category: 'titles' },
  robots_txt_5xx: { severity: 'error', category: 'robots_sitemaps' },
  sitemap_missing: { severity: 'info', category: 'robots_sitemaps' },
};

/** A crawl: scored pages, HTML pages among them, and any subset of the checks on some of them. */
const crawl: fc.Arbitrary<ScoreData> = fc
  .record({ pages: fc.integer({ min: 1, max: 5000 }), html: fc.double({ min: 0, max: 1, noNaN: true }), checks: fc.dictionary(fc.constantFrom(...Object.keys(NAMES)), fc.double({ min: 0, max: 1, noNaN: true })) })
  .map(({ pages, html, checks }) => {
    const htmlPages = Math.round(pages * html);
    return {
      pages,
      htmlPages,
      checks: Object.entries(checks).map(([name, share]) => ({ name, ...NAMES[name]!, pages: Math.round(share * pages) })),
    };
  });

const exact = (data: ScoreData) => exactScoreOf(data)!;

describe('why a score moved (attributeScoreChange)', () => {
  it('splits the movement over the checks exactly, for any two sets of checks', () => {
    fc.assert(
      fc.property(crawl, crawl, (before, now) => {
        const parts = attributionParts({ exact: exact(before), data: before }, { exact: exact(now), data: now });
        const sum = parts.checks.reduce((s, c) => s + c.raw, 0) + parts.other;
        expect(sum).toBeCloseTo(exact(now) - exact(before), 9);
        // The checks explain the whole score: nothing is left to `other`.
        expect(parts.other).toBe(0);
        // A check whose cost fell raised the score, and the reverse.
        for (const c of parts.checks) expect(Math.sign(c.raw)).toBe(-Math.sign(c.cost - c.previous_cost));

        const published = attributeScoreChange({ exact: exact(before), data: before }, { exact: exact(now), data: now })!;
        const tenths = published.checks.reduce((s, c) => s + Math.round(c.points * 10), 0) + Math.round(published.other * 10);
        expect(tenths).toBe(Math.round(published.exact_delta * 10));
        expect(Math.abs(published.exact_delta - (exact(now) - exact(before)))).toBeLessThanOrEqual(0.05 + 1e-9);
        // The published integers differ from the exact movement by their rounding only.
        expect(Math.abs(Math.round(exact(now)) - Math.round(exact(before)) - published.exact_delta)).toBeLessThan(1.05);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 1000) },
    );
  });

  it('gives a score not explained by its checks (PageSpeed) to `other`', () => {
    const data: ScoreData = { pages: 10, htmlPages: 10, checks: [{ name: 'http_page', severity: 'error', category: 'http', pages: 10 }] };
    const checksOnly = exact(data);
    const result = attributeScoreChange({ exact: checksOnly, data }, { exact: checksOnly * 0.9, data })!;
    expect(result.checks).toEqual([]);
    expect(result.other).toBe(result.exact_delta);
    expect(result.other).toBeCloseTo(-checksOnly * 0.1, 1);
  });

  it('names a fixed template error and a new broken link, with their pages and costs', () => {
    const before: ScoreData = { pages: 40, htmlPages: 40, checks: [{ name: 'http_page', severity: 'error', category: 'http', pages: 40 }] };
    const now: ScoreData = { pages: 40, htmlPages: 40, checks: [{ name: 'broken_internal_link', severity: 'error', category: 'links_images', pages: 1 }] };
    const result = attributeScoreChange({ exact: exact(before), data: before }, { exact: exact(now), data: now })!;
    expect(result.checks.map((c) => [c.name, c.previous_pages, c.pages, Math.sign(c.points)])).toEqual([
      ['http_page', 40, 0, 1],
      ['broken_internal_link', 0, 1, -1],
    ]);
    expect(result.exact_delta).toBe(Math.round((exact(now) - exact(before)) * 10) / 10);
  });

  it('is null when either score is not measured', () => {
    const data: ScoreData = { pages: 1, htmlPages: 1, checks: [] };
    expect(attributeScoreChange({ exact: null, data }, { exact: 90, data })).toBeNull();
  });

  it('rounds parts to tenths that add up to their total rounded (largest remainder)', () => {
    // Each 1/3 rounds to 0.3 alone: three of them would say 0.9 of a 1.0 movement.
    expect(roundToTenths([1 / 3, 1 / 3, 1 / 3])).toEqual([0.4, 0.3, 0.3]);
    // Equal remainders: the first part takes the tenth.
    expect(roundToTenths([-0.25, 0.25, 0.3])).toEqual([-0.2, 0.2, 0.3]);
    expect(roundToTenths([])).toEqual([]);
  });
});
