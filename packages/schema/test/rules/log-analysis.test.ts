import { describe, expect, it } from 'vitest';
import { isIndexable, joinLogs, joinPath, logFindings, logInsights, logPillar, type JoinPage, type UrlStat } from '../../src/rules/log-analysis.js';

const page = (url: string, extra: Partial<JoinPage> = {}): JoinPage => ({
  url,
  status_code: 200,
  content_type: 'text/html; charset=utf-8',
  canonical_url: null,
  depth: 1,
  noindex: false,
  robots_disallowed: false,
  ...extra,
});
const stat = (path: string, hits: number, extra: Partial<UrlStat> = {}): UrlStat => ({
  path,
  family: 'googlebot',
  verification: 'verified',
  hits,
  last_visit: '2026-01-14T00:00:00.000Z',
  status_codes: { '200': hits },
  bytes: 0,
  ...extra,
});
const pages = [page('https://example.com/'), page('https://example.com/a'), page('https://example.com/b', { noindex: true }), page('https://example.com/c', { depth: 2 })];

describe('log analysis (docs/decisions/logs.md)', () => {
  it('joins logged paths and crawled URLs on path and query', () => {
    expect(joinPath('https://example.com/a?b=1#x')).toBe('/a?b=1');
    expect(joinPath('/a?b=1')).toBe('/a?b=1');
  });

  it('counts as indexable a 2xx HTML page, not noindex nor disallowed, canonical to itself', () => {
    expect(isIndexable(page('https://example.com/a', { canonical_url: 'https://example.com/a' }))).toBe(true);
    expect(isIndexable(page('https://example.com/a', { canonical_url: 'https://example.com/b' }))).toBe(false);
    expect(isIndexable(page('https://example.com/a', { status_code: 301 }))).toBe(false);
    expect(isIndexable(page('https://example.com/a', { content_type: 'application/pdf' }))).toBe(false);
    expect(isIndexable(page('https://example.com/a', { robots_disallowed: true }))).toBe(false);
  });

  it('finds URLs bots visit that the crawl missed, and indexable pages no bot visited, sorted by path', () => {
    const stats = [stat('/a', 3), stat('/zz', 1), stat('/old', 2)];
    expect(logFindings(joinLogs(stats, pages), 'not_in_crawl').map((f) => [f.path, f.bot_hits])).toEqual([
      ['/old', 2],
      ['/zz', 1],
    ]);
    expect(logFindings(joinLogs(stats, pages), 'indexable_not_visited').map((f) => f.path)).toEqual(['/', '/c']);
  });

  it('keeps unverified claims apart from the bots, counted from their day counts, and splits the crawl budget', () => {
    // The '/a' unverified statistic stands for a row an import made before claims lost their paths: it is not read.
    const stats = [stat('/a', 4), stat('/a', 9, { verification: 'unverified' }), stat('/b', 2, { status_codes: { '301': 2 } })];
    const insights = logInsights('p', stats, { humans: 7, unverified: [{ family: 'googlebot', hits: 5 }, { family: 'bingbot', hits: 1 }] }, null, { id: 'c', pages });
    expect(insights.hits).toEqual({ bots: 6, unverified_claims: 6, humans: 7 });
    expect(insights.families).toEqual([
      { family: 'googlebot', verification: 'verified', hits: 6, urls: 2, last_visit: '2026-01-14T00:00:00.000Z' },
      { family: 'googlebot', verification: 'unverified', hits: 5, urls: 0, last_visit: null },
      { family: 'bingbot', verification: 'unverified', hits: 1, urls: 0, last_visit: null },
    ]);
    const budget = Object.fromEntries(insights.budget.map((b) => [b.bucket, b.hits]));
    expect(budget).toMatchObject({ indexable: 4, redirect: 2, noindex: 2, not_in_crawl: 0 });
    expect(insights.coverage).toEqual({ indexable_pages: 3, visited: 1, not_in_crawl_urls: 0 });
    expect(logInsights('p', [stat('/a', 4)], { humans: 0, unverified: [] }, null, null)).toMatchObject({ budget: [], coverage: null });
  });

  it('scores the logs pillar on the axes it can measure, null without bot hits', () => {
    const asOf = new Date('2026-01-15T00:00:00Z');
    expect(logPillar([], pages, asOf).score).toBeNull();
    const pillar = logPillar([stat('/', 1), stat('/a', 1, { status_codes: { '404': 1 } })], pages, asOf);
    expect(Object.fromEntries(pillar.axes.map((a) => [a.key, a.score]))).toEqual({ indexable_hits: 50, coverage: 67, waste: 50, freshness: 100 });
    expect(pillar.score).toBe(67);
    expect(logPillar([stat('/', 1)], null, asOf).axes.map((a) => a.score)).toEqual([null, null, 100, null]);
  });
});
