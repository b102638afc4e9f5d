/**
 * Crawls the labelled fixture site and compares the findings with the labels: every seeded
 * defect is found, and nothing else is reported, on the clean pages or anywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/crawler/index.js';
import { checkBasis, isHtmlPage } from '@siteaudit/schema/rules';
import { SITEMAP_PATHS, startFixtureSite, type FixtureSite } from './fixture-site.js';
import { crawl, pairs } from '../../../../tests/support/crawler.js';

describe('crawl of the labelled fixture site', () => {
  let site: FixtureSite;
  let result: Awaited<ReturnType<typeof crawl>>;

  /** Internal pages linking to each URL, read from the HTML the fixture serves (not from the crawler). */
  const linkingPages = new Map<string, Set<string>>();

  beforeAll(async () => {
    site = await startFixtureSite();
    result = await crawl(`${site.origin}/`, { checkExternalLinks: true, checkAiReachability: true, concurrency: 4 });
    for (const p of result.pages) {
      if (!p.is_internal || p.status_code !== 200 || !p.content_type?.startsWith('text/html')) continue;
      const html = await (await fetch(p.url)).text();
      for (const [, href] of html.matchAll(/<a\s[^>]*href="([^"#]+)"/g)) {
        const target = new URL(href, p.url).href;
        if (!target.startsWith(site.origin) || target === p.url) continue;
        linkingPages.set(target, (linkingPages.get(target) ?? new Set()).add(p.url));
      }
      const refresh = /http-equiv="refresh" content="\d+; url=([^"]+)"/.exec(html);
      if (refresh) linkingPages.set(new URL(refresh[1], p.url).href, (linkingPages.get(new URL(refresh[1], p.url).href) ?? new Set()).add(p.url));
    }
  });
  afterAll(() => site.close());

  function expectedPairs(): string[] {
    const labels = site.labels().map((l) => `${l.name} ${l.url}`);
    // Site-level defects seeded in robots.txt and llms.txt.
    labels.push(
      `ai_search_agent_blocked ${site.origin}/robots.txt`,
      `ai_training_crawler_blocked ${site.origin}/robots.txt`,
      `llms_txt_no_h1 ${site.origin}/llms.txt`,
    );
    // The fixture is plain HTTP: every internal HTML page answering 2xx is served over HTTP
    // (a meta-refresh redirect is a redirect, not a page).
    // Two site-structure checks apply to most of its pages, by construction: the sitemap lists only
    // SITEMAP_PATHS (not_in_sitemap on every other indexable page), and defect pages hang off one
    // hub (single_inlink on each indexable page, other than the start, that one page links to).
    for (const p of result.pages) {
      if (p.is_internal && !p.protection && p.status_code !== null && p.status_code < 300 && p.content_type?.startsWith('text/html') && p.redirect_url === null) {
        labels.push(`http_page ${p.url}`);
        if (p.indexable && !SITEMAP_PATHS.includes(new URL(p.url).pathname)) labels.push(`not_in_sitemap ${p.url}`);
        if (p.indexable && p.url !== `${site.origin}/` && linkingPages.get(p.url)?.size === 1) labels.push(`single_inlink ${p.url}`);
      }
    }
    return [...new Set(labels)].sort();
  }

  it('finds every seeded defect and nothing else', () => {
    const got = pairs(result.issues);
    const expected = expectedPairs();
    const missing = expected.filter((e) => !got.includes(e));
    // slow_response (no page of the fixture is seeded slow) follows the machine's load, not the site.
    const unexpected = got.filter((g) => !expected.includes(g) && !g.startsWith('slow_response '));
    expect({ missing, unexpected }).toEqual({ missing: [], unexpected: [] });
  });

  it('reports nothing but http_page (and the sitemap and inlink structure) on the clean pages', () => {
    const structure = new Set(['not_in_sitemap', 'single_inlink']);
    for (const path of ['/', '/about', '/blog/', '/blog/post-1', '/blog/post-2', '/products/', '/contact', '/defects/', '/en/page', '/fr/page', '/de/page']) {
      const names = result.issues.filter((i) => i.url === `${site.origin}${path}` && !structure.has(i.name)).map((i) => i.name);
      expect(names, path).toEqual(['http_page']);
    }
  });

  it('exercises at least 45 distinct checks', () => {
    const names = new Set(result.issues.map((i) => i.name));
    expect(names.size).toBeGreaterThanOrEqual(45);
    for (const issue of result.issues) {
      const def = CHECKS[issue.name as keyof typeof CHECKS];
      expect(def, issue.name).toBeDefined();
      expect(issue.severity).toBe(def.severity);
      expect(issue.category).toBe(def.category);
    }
  });

  it('returns the outcome: counts, protection, score', () => {
    const { outcome, issues } = result;
    expect(outcome.blocked).toBe(false);
    expect(outcome.truncated).toBe(false);
    expect(outcome.aborted).toBe(false);
    expect(outcome.protectionOccurrences).toBe(1);
    const bySeverity = { error: 0, warning: 0, info: 0 };
    for (const i of issues) bySeverity[i.severity]++;
    expect(outcome.issueCounts).toEqual(bySeverity);
    expect(outcome.crawled).toBe(result.pages.filter((p) => p.is_internal).length);
    expect(outcome.healthScore).toBeGreaterThan(0);
    expect(outcome.healthScore).toBeLessThan(100);
  });

  it('records the challenge page as protection, with no issue of its own', () => {
    const challenge = result.pages.find((p) => p.url === `${site.origin}/challenge`)!;
    expect(challenge.protection).toBe(true);
    expect(challenge.status_code).toBe(503);
    expect(result.issues.filter((i) => i.url === challenge.url)).toEqual([]);
  });

  it('records click depth breadth first, every redirect hop, blocked and external URLs', () => {
    const page = (path: string) => result.pages.find((p) => p.url === `${site.origin}${path}`)!;
    expect(page('/').depth).toBe(0);
    expect(page('/defects/').depth).toBe(1);
    expect(page('/deep/5').depth).toBe(6);
    expect(page('/orphan').discovered_via).toBe('sitemap');
    expect(page('/redirect-chain').redirect_chain.map((h) => h.status_code)).toEqual([301, 301]);
    expect(page('/redirect-chain-2').redirect_url).toBe(`${site.origin}/about`);
    expect(page('/loop-b').status_code).toBe(301);
    expect(page('/private/page').error_type).toBe('blocked_by_robots');
    const external = result.pages.filter((p) => !p.is_internal);
    expect(external.find((p) => p.url === `${site.externalOrigin}/missing`)?.status_code).toBe(404);
    expect(external.find((p) => p.url === `${site.externalOrigin}/head-405`)?.status_code).toBe(200);
    // Each URL is recorded once.
    const urls = result.pages.map((p) => p.url);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('fills the CrawledPage fields from the HTML', () => {
    const home = result.pages.find((p) => p.url === `${site.origin}/`)!;
    expect(home).toMatchObject({
      status_code: 200,
      is_internal: true,
      title: 'Page / of the fixture site',
      h1: 'Heading of /',
      canonical_url: `${site.origin}/`,
      internal_links: 6,
      external_links: 0,
      images: 1,
      images_without_alt: 0,
      lang: 'en',
      indexable: true,
      content_encoding: 'gzip',
    });
    expect(home.word_count).toBeGreaterThan(200);
    expect(home.simhash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('fires a check of a page only on HTML pages answering 2xx, so its share is of those pages (docs/health-score.md)', () => {
    const htmlPages = new Set(result.pages.filter((p) => isHtmlPage(p)).map((p) => p.url));
    const elsewhere = result.issues.filter((i) => i.name in CHECKS && checkBasis(i.name) === 'page' && !htmlPages.has(i.url)).map((i) => `${i.name} ${i.url}`);
    expect(elsewhere).toEqual([]);
    // The URL checks do fire elsewhere: a 404, a redirect, a URL blocked by robots.txt.
    const urlChecks = result.issues.filter((i) => i.name in CHECKS && checkBasis(i.name) === 'url' && !htmlPages.has(i.url)).map((i) => i.name);
    expect(urlChecks).toEqual(expect.arrayContaining(['http_4xx', 'redirect_chain', 'blocked_by_robots']));
  });

  it('sends pages and issues in batches, pages first', () => {
    expect(Math.max(...result.batches.pages)).toBeLessThanOrEqual(200);
    const progress = result.progress.map((p) => p.crawled);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });
});
