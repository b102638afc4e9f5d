/**
 * robots.txt per RFC 9309: rule matching (unit), and what the crawl does with 4xx, 5xx, a full
 * disallow, Crawl-delay and the grouping cases robots-parser got wrong (against the fixture
 * server, asserting on the paths it was asked for). The parser's own tests are in
 * robots-rfc.test.ts, robots-google.test.ts and robots-fixtures.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { robotsToken } from '../../../src/crawler/index.js';
import { parseRobots } from '../../../src/crawler/fetch/robots-policy.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site.js';
import { crawl, issuesOf } from '../../../../../tests/support/crawler.js';

const ROBOTS = 'https://example.com/robots.txt';
const U = (path: string) => `https://example.com${path}`;

describe('robots.txt rules', () => {
  it('picks the group of our product token, else *', () => {
    const text = ['User-agent: *', 'Disallow: /', '', 'User-agent: SiteAuditBot', 'Disallow: /private'].join('\n');
    const ours = parseRobots(ROBOTS, text, 'siteauditbot');
    expect(ours.isAllowed(U('/page'))).toBe(true);
    expect(ours.isAllowed(U('/private/x'))).toBe(false);
    const other = parseRobots(ROBOTS, text, 'otherbot');
    expect(other.isAllowed(U('/page'))).toBe(false);
  });

  it('matches the user agent case-insensitively and merges groups of the same agent', () => {
    const text = ['User-agent: SITEAUDITBOT', 'Disallow: /a', 'User-agent: other', 'Disallow: /', '', 'user-agent: siteauditbot', 'Disallow: /b'].join('\n');
    const p = parseRobots(ROBOTS, text, 'siteauditbot');
    expect(p.isAllowed(U('/a'))).toBe(false);
    expect(p.isAllowed(U('/b'))).toBe(false);
    expect(p.isAllowed(U('/c'))).toBe(true);
  });

  it('lets the longest matching rule win', () => {
    const p = parseRobots(ROBOTS, ['User-agent: *', 'Disallow: /shop', 'Allow: /shop/public', 'Disallow: /shop/public/secret'].join('\n'), 'bot');
    expect(p.isAllowed(U('/shop/cart'))).toBe(false);
    expect(p.isAllowed(U('/shop/public/item'))).toBe(true);
    expect(p.isAllowed(U('/shop/public/secret/1'))).toBe(false);
  });

  it('lets Allow win a tie of equal length', () => {
    const p = parseRobots(ROBOTS, ['User-agent: *', 'Disallow: /page', 'Allow: /page'].join('\n'), 'bot');
    expect(p.isAllowed(U('/page'))).toBe(true);
    const q = parseRobots(ROBOTS, ['User-agent: *', 'Allow: /page', 'Disallow: /page'].join('\n'), 'bot');
    expect(q.isAllowed(U('/page'))).toBe(true);
  });

  it('supports * and $ wildcards, and matches the query', () => {
    const p = parseRobots(ROBOTS, ['User-agent: *', 'Disallow: /*.pdf$', 'Disallow: /*?session='].join('\n'), 'bot');
    expect(p.isAllowed(U('/doc/a.pdf'))).toBe(false);
    expect(p.isAllowed(U('/doc/a.pdf?v=1'))).toBe(true);
    expect(p.isAllowed(U('/list?session=1'))).toBe(false);
  });

  it('ignores an empty Disallow and always allows /robots.txt', () => {
    expect(parseRobots(ROBOTS, 'User-agent: *\nDisallow:', 'bot').isAllowed(U('/x'))).toBe(true);
    expect(parseRobots(ROBOTS, 'User-agent: *\nDisallow: /', 'bot').isAllowed(U('/robots.txt'))).toBe(true);
  });

  it('reads Crawl-delay and Sitemap lines', () => {
    const p = parseRobots(ROBOTS, 'User-agent: *\nCrawl-delay: 2\nSitemap: https://example.com/s.xml', 'bot');
    expect(p.crawlDelayMs).toBe(2000);
    expect(p.sitemaps).toEqual(['https://example.com/s.xml']);
  });

  it('derives the product token from the User-Agent header', () => {
    expect(robotsToken('Mozilla/5.0 (compatible; SiteAuditBot/1.0; +https://x)')).toBe('siteauditbot');
    expect(robotsToken('MyCrawler/2.1 (+https://x)')).toBe('mycrawler');
  });
});

describe('robots.txt in a crawl', () => {
  let site: FixtureSite | undefined;
  afterEach(async () => {
    await site?.close();
    site = undefined;
  });

  it('4xx: everything is allowed, and robots_txt_missing is reported', async () => {
    site = await startFixtureSite({ robots: { status: 404 }, only: ['/', '/about'] });
    const r = await crawl(`${site.origin}/`);
    expect(r.outcome.blocked).toBe(false);
    expect(r.pages.find((p) => p.url === `${site!.origin}/about`)?.status_code).toBe(200);
    // /sitemap.xml exists, so it is also "not listed in robots.txt".
    expect(issuesOf(r.issues, `${site.origin}/robots.txt`)).toEqual(['robots_txt_missing', 'sitemap_not_in_robots']);
  });

  it('403 is a 4xx too: allow all', async () => {
    site = await startFixtureSite({ robots: { status: 403, body: 'forbidden' }, only: ['/', '/about'] });
    const r = await crawl(`${site.origin}/`);
    expect(r.outcome.blocked).toBe(false);
    expect(r.outcome.crawled).toBeGreaterThan(1);
  });

  it('5xx: everything is disallowed, an error is reported and the crawl is blocked', async () => {
    site = await startFixtureSite({ robots: { status: 503, body: 'down' }, only: ['/', '/about'] });
    const r = await crawl(`${site.origin}/`, { retries: 1 });
    expect(r.outcome).toMatchObject({ blocked: true, blockedReason: 'robots_unreachable', crawled: 1, healthScore: null });
    expect(issuesOf(r.issues, `${site.origin}/robots.txt`)).toEqual(['robots_txt_5xx']);
    expect(r.pages[0]).toMatchObject({ url: `${site.origin}/`, error_type: 'blocked_by_robots', status_code: null });
    // Only robots.txt was asked for (with its retry): no page was fetched.
    expect(site.requests.every((q) => q.endsWith('/robots.txt'))).toBe(true);
  });

  it('a full disallow for our agent blocks the crawl', async () => {
    site = await startFixtureSite({ robots: 'User-agent: SiteAuditBot\nDisallow: /\n\nUser-agent: *\nAllow: /', only: ['/', '/about'] });
    const r = await crawl(`${site.origin}/`);
    expect(r.outcome).toMatchObject({ blocked: true, blockedReason: 'robots_disallow', crawled: 1 });
    expect(site.requests.filter((q) => !q.endsWith('/robots.txt'))).toEqual([]);
  });

  it('honours Crawl-delay: one request at a time on the host', async () => {
    const pages = ['/', '/about', '/blog/', '/blog/post-1', '/blog/post-2', '/products/', '/contact'];
    // Control: without Crawl-delay, the same crawl does overlap requests.
    site = await startFixtureSite({ robots: 'User-agent: *\nAllow: /\n', sitemap: false, only: pages, delayMs: 30 });
    await crawl(`${site.origin}/`, { concurrency: 8, perHostConcurrency: 4 });
    expect(site.load.peak).toBeGreaterThan(1);
    await site.close();

    site = await startFixtureSite({ robots: 'User-agent: *\nCrawl-delay: 0.01\n', sitemap: false, only: pages, delayMs: 30 });
    const r = await crawl(`${site.origin}/`, { concurrency: 8, perHostConcurrency: 4 });
    expect(r.pages.filter((p) => p.status_code === 200)).toHaveLength(pages.length);
    expect(site.load.peak).toBe(1);
  });

  /** Pages the crawler asked for, other than robots.txt, sitemaps and llms.txt. */
  const pagesRequested = (f: FixtureSite) =>
    f.requests.map((q) => q.replace(/^\S+ /, '')).filter((p) => !/^\/(robots\.txt|sitemap\.xml|news\.xml|llms\.txt)$/.test(p));
  const SITE = ['/', '/about', '/private/page', '/blog/', '/blog/post-1'];
  const links = { '/': { html: () => '<html><body><a href="/about">a</a> <a href="/private/page">p</a> <a href="/blog/">b</a></body></html>' } };

  it('a Crawl-delay line does not end our group: User-agent: * with Disallow: / below it applies to us', async () => {
    site = await startFixtureSite({ robots: 'User-agent: SiteAuditBot\nCrawl-delay: 0.01\nUser-agent: *\nDisallow: /\n', only: SITE, routes: links });
    const r = await crawl(`${site.origin}/`);
    expect(r.outcome).toMatchObject({ blocked: true, blockedReason: 'robots_disallow' });
    expect(pagesRequested(site)).toEqual([]);
  });

  it('Sitemap lines do not end our group: the rules after them, under another agent of the group, apply to us', async () => {
    site = await startFixtureSite({
      robots: 'User-agent: SiteAuditBot\nSitemap: /sitemap.xml\nUser-agent: OtherBot\nDisallow: /private/\nSitemap: /news.xml\nDisallow: /about\n',
      sitemap: false,
      only: SITE,
      routes: links,
    });
    const r = await crawl(`${site.origin}/`);
    expect(r.outcome.blocked).toBe(false);
    const asked = pagesRequested(site);
    expect(asked).toContain('/');
    expect(asked).toContain('/blog/');
    expect(asked).not.toContain('/about');
    expect(asked).not.toContain('/private/page');
  });

  it('our group without rules, last in the file, allows everything rather than falling back to *', async () => {
    site = await startFixtureSite({ robots: 'User-agent: *\nDisallow: /\n\nUser-agent: SiteAuditBot\n', sitemap: false, only: SITE, routes: links });
    const r = await crawl(`${site.origin}/`);
    expect(r.outcome.blocked).toBe(false);
    expect(pagesRequested(site)).toEqual(expect.arrayContaining(['/', '/about', '/private/page', '/blog/']));
  });

  it('a percent-encoded pattern blocks the page it spells: /%70rivate/ is /private/', async () => {
    site = await startFixtureSite({ robots: 'User-agent: *\nDisallow: /%70rivate/\nDisallow: /%61bout$\n', sitemap: false, only: SITE, routes: links });
    const r = await crawl(`${site.origin}/`);
    expect(r.outcome.blocked).toBe(false);
    const asked = pagesRequested(site);
    expect(asked).toContain('/blog/');
    expect(asked).not.toContain('/private/page');
    expect(asked).not.toContain('/about');
  });
});
